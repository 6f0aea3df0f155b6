package org.jvmreuse.it.programs;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/** Interleaves stdout and stderr lines, then echoes stdin. */
public final class StdioMix {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 3; i++) {
            System.out.println("out " + i);
            System.err.println("err " + i);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            System.out.println("in: " + line);
        }
    }
}
