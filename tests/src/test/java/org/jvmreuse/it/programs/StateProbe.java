package org.jvmreuse.it.programs;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Prints the process state a program sees, then changes all of it, so a second run can show
 * that none of the changes reached it.
 */
public final class StateProbe {
    public static void main(String[] args) throws Exception {
        System.out.println("prop=" + System.getProperty("probe.prop"));
        System.out.println("env=" + System.getenv("PROBE_ENV"));
        System.out.println("envmap=" + System.getenv().get("PROBE_ENV"));
        System.out.println("user.dir=" + System.getProperty("user.dir"));
        System.out.println("file=" + new File("rel.txt").getAbsolutePath());
        System.out.println("nio=" + Path.of("rel.txt").toAbsolutePath());
        System.out.println("handler=" + Thread.getDefaultUncaughtExceptionHandler());
        System.out.println("locale=" + Locale.getDefault());
        System.out.println("classpath=" + System.getProperty("java.class.path"));
        Files.writeString(Path.of("rel.txt"), "written by a relative path");
        System.setProperty("probe.prop", "changed-by-run");
        System.setProperty("probe.new", "leaked");
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> { });
        Locale.setDefault(Locale.JAPAN);
        System.out.println("newprop=" + System.getProperty("probe.new"));
    }
}
