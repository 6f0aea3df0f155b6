package org.jvmreuse.it.programs;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * {@code Orphan}: starts a shell that starts {@code sleep 600} in the background and exits at
 * once, so the sleep is orphaned (a daemon's double fork, a script's background job), and prints
 * the sleep's pid.
 */
public final class Orphan {
    public static void main(String[] args) throws Exception {
        Process shell = new ProcessBuilder("sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!").start();
        String pid = new BufferedReader(new InputStreamReader(shell.getInputStream())).readLine();
        shell.waitFor();
        System.out.println(pid);
    }
}
