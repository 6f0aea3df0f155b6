package org.jvmreuse.it.programs;

import org.jvmreuse.it.sharedlib.FaultyReceiver;

/** {@code Poke KIND MILLIS}: makes its slot's service receiver fail ({@link FaultyReceiver}), then sleeps. */
public final class Poke {
    public static void main(String[] args) throws InterruptedException {
        FaultyReceiver.poke(Integer.parseInt(args[0]));
        Thread.sleep(Long.parseLong(args[1]));
        System.out.println("poked");
    }
}
