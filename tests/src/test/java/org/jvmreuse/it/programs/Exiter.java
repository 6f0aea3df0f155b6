package org.jvmreuse.it.programs;

/**
 * Ends in the way its first argument names: {@code exit N}, {@code halt N}, {@code thread-exit N}
 * (System.exit from another thread), {@code throw}, {@code return}, {@code non-daemon} (main
 * returns while a non-daemon thread still prints), {@code sleep MILLIS}, {@code fill-stdout} (writes 1 MiB
 * to stdout, which blocks while nobody reads it), {@code term-counting-child FILE} (starts a shell that
 * appends its pid to FILE, then "TERM" for each SIGTERM it gets and goes on; prints "child started", sleeps),
 * {@code append FILE} (appends a line to FILE). A
 * shutdown hook prints
 * "hook ran".
 */
public final class Exiter {
    public static void main(String[] args) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook ran")));
        System.out.println("started " + args[0]);
        switch (args[0]) {
            case "exit" -> System.exit(Integer.parseInt(args[1]));
            case "halt" -> Runtime.getRuntime().halt(Integer.parseInt(args[1]));
            case "thread-exit" -> {
                Thread t = new Thread(() -> System.exit(Integer.parseInt(args[1])));
                t.start();
                Thread.sleep(60_000);
                System.out.println("not reached");
            }
            case "throw" -> throw new IllegalStateException("thrown by the program");
            case "non-daemon" -> new Thread(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
                System.out.println("non-daemon thread finished");
            }).start();
            case "sleep" -> Thread.sleep(Long.parseLong(args[1]));
            case "append" -> java.nio.file.Files.writeString(java.nio.file.Path.of(args[1]), "ran\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            case "fill-stdout" -> System.out.write(new byte[1 << 20], 0, 1 << 20);
            case "term-counting-child" -> {
                new ProcessBuilder("sh", "-c", "trap 'echo TERM >> \"$0\"' TERM; echo $$ >> \"$0\"; while :; do sleep 0.05 & wait $!; done",
                        args[1]).start();
                System.out.println("child started");
                Thread.sleep(600_000);
            }
            default -> { }
        }
        System.out.println("main returned");
    }
}
