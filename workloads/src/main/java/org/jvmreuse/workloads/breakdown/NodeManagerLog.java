package org.jvmreuse.workloads.breakdown;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Container launches from NodeManager logs: the PoolContainerExecutor's line per container,
 * {@code Container ID: task handed to the JVM pool at ...}, {@code ...: application master handed
 * to the JVM pool at ...} or {@code ...: stock launch (reason)}, after log4j's ISO8601 time stamp
 * ({@code 2026-11-22 13:39:01,234}, the NodeManager's local time: read in this JVM's time zone).
 */
public final class NodeManagerLog {
    private static final Pattern LINE = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*?"
            + "Container (container_[0-9_]+): (?:(task|application master) handed to the JVM pool|(stock launch))");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

    private NodeManagerLog() {
    }

    /** The launches in all {@code files}, by container id. */
    public static Map<String, ContainerLaunch> read(List<Path> files) throws IOException {
        Map<String, ContainerLaunch> launches = new HashMap<>();
        for (Path file : files) {
            try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
                launches.putAll(parse(lines, ZoneId.systemDefault()));
            }
        }
        return launches;
    }

    /** The launches in {@code lines}, whose time stamps are local times in {@code zone}. */
    static Map<String, ContainerLaunch> parse(Stream<String> lines, ZoneId zone) {
        Map<String, ContainerLaunch> launches = new HashMap<>();
        lines.forEach(line -> {
            Matcher m = LINE.matcher(line);
            if (m.find()) {
                long ms = LocalDateTime.parse(m.group(1), TIME).atZone(zone).toInstant().toEpochMilli();
                launches.putIfAbsent(m.group(2),
                        new ContainerLaunch(ms, m.group(4) == null ? ContainerLaunch.POOL : ContainerLaunch.STOCK));
            }
        });
        return launches;
    }
}
