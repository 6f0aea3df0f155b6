package org.jvmreuse.it.sharedlib;

import java.util.ArrayList;
import java.util.List;

/** A static of a shared library: what a run puts here outlives the run (the slot keeps the library loaded). */
public final class Hoard {
    public static final List<Object> KEPT = new ArrayList<>();

    private Hoard() {
    }
}
