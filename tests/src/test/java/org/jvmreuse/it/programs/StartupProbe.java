package org.jvmreuse.it.programs;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;

/**
 * Prints what a JVM takes at start-up from its options and the process starting it, for
 * StartupSettingsTest to compare a slot against a new JVM: "zone", "locale", "encoding", "umask"
 * (the permissions of a file it creates in its directory), "limits" (lines of /proc/self/limits),
 * "stack DEPTH" (a recursion that needs a large stack of the main thread), "arguments" (the JVM's
 * input arguments, as {@code RuntimeMXBean} reports them), "ipstack" (the loopback's addresses the
 * JVM sees, and whether it can bind to {@code ::1}: the IP stack it picked at start-up), "lines"
 * (the characters of the line separator, which {@code println} ends the line with too), "sort"
 * (whether sorting with a comparator that breaks its contract fails, as TimSort's check does).
 */
public final class StartupProbe {
    private StartupProbe() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "zone" -> System.out.println("zone=" + TimeZone.getDefault().getID() + " property="
                    + System.getProperty("user.timezone") + " java.time=" + java.time.ZoneId.systemDefault());
            case "locale" -> System.out.println("locale=" + Locale.getDefault() + " display="
                    + Locale.getDefault(Locale.Category.DISPLAY) + " format=" + Locale.getDefault(Locale.Category.FORMAT)
                    + " number=" + String.format("%,.1f", 1234.5) + " language=" + System.getProperty("user.language")
                    + " country=" + System.getProperty("user.country"));
            case "encoding" -> System.out.println("charset=" + Charset.defaultCharset() + " file.encoding="
                    + System.getProperty("file.encoding") + " sun.jnu.encoding=" + System.getProperty("sun.jnu.encoding"));
            case "umask" -> {
                Path file = Files.createFile(Path.of("umask.txt")); // not a temp file: those are 600 whatever the umask
                Path dir = Files.createDirectory(Path.of("umask.d"));
                System.out.println("file=" + PosixFilePermissions.toString(Files.getPosixFilePermissions(file))
                        + " dir=" + PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
                Files.delete(file);
                Files.delete(dir);
            }
            case "limits" -> {
                for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                    for (int i = 1; i < args.length; i++) {
                        if (line.startsWith(args[i])) {
                            System.out.println(line.replaceAll("\\s+", " ").trim());
                        }
                    }
                }
            }
            case "stack" -> System.out.println("depth=" + recurse(Integer.parseInt(args[1])));
            case "arguments" -> System.out.println("arguments=" + ManagementFactory.getRuntimeMXBean().getInputArguments());
            case "ipstack" -> System.out.println("ipstack=" + ipStack());
            case "lines" -> System.out.println("separator=" + System.lineSeparator().chars().boxed().toList());
            case "sort" -> System.out.println("sort=" + sortBreakingTheContract());
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** TimSort notices a comparator that breaks its contract on these arrays; the legacy merge sort does not. */
    private static String sortBreakingTheContract() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            Integer[] values = new Integer[5000];
            Arrays.setAll(values, i -> random.nextInt(1000));
            try {
                Arrays.sort(values, (x, y) -> random.nextInt(3) - 1);
            } catch (IllegalArgumentException e) {
                return "TimSort: " + e.getMessage();
            }
        }
        return "sorted every time";
    }

    private static String ipStack() throws IOException {
        List<String> loopback = new ArrayList<>();
        NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        for (InetAddress address : lo == null ? List.<InetAddress>of() : Collections.list(lo.getInetAddresses())) {
            loopback.add(address.getHostAddress());
        }
        String bind;
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("::1", 0));
            bind = "bound";
        } catch (IOException e) {
            bind = e.getClass().getSimpleName();
        }
        return loopback + " ::1 " + bind;
    }

    private static int recurse(int n) {
        return n == 0 ? 0 : 1 + recurse(n - 1);
    }
}
