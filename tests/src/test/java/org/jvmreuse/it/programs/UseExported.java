package org.jvmreuse.it.programs;

/**
 * {@code UseExported}: calls a public method of a JDK package java.base does not export
 * ({@code sun.net.util.IPAddressUtil}, one of the packages Hadoop 3.4's tasks are given with
 * --add-exports), which works only where the JVM exports it to this code; elsewhere it fails with
 * IllegalAccessException (exit 1).
 */
public final class UseExported {
    public static void main(String[] args) throws Exception {
        Object literal = Class.forName("sun.net.util.IPAddressUtil").getMethod("isIPv4LiteralAddress", String.class)
                .invoke(null, "10.0.0.1");
        System.out.println("sun.net.util used: " + literal);
    }
}
