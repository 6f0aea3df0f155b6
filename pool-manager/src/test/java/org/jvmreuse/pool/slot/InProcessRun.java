package org.jvmreuse.pool.slot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.protocol.RunKind;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;
import org.jvmreuse.pool.protocol.StreamPath;

/**
 * What a run of an {@link InProcessSlot} runs: {@code java -cp SHARED:OWN -DNAME=VALUE
 * --add-opens MODULE/PACKAGE=ALL-UNNAMED MAIN ARGS} in a directory, with the slot's environment and
 * any variables added, stdin from {@code /dev/null}, and the slot's own start-up settings (umask,
 * limits, locale).
 */
public final class InProcessRun {
    private final String mainClass;
    private final List<String> args;
    private final List<String> shared = new ArrayList<>();
    private final List<String> own = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private final Map<String, String> environment = new LinkedHashMap<>(System.getenv());
    private final List<String> addOpens = new ArrayList<>();
    private Path directory;

    private InProcessRun(String mainClass, List<String> args) {
        this.mainClass = mainClass;
        this.args = args;
    }

    public static InProcessRun of(String mainClass, String... args) {
        return new InProcessRun(mainClass, List.of(args));
    }

    /** Class path entries whose loader the slot keeps across the runs that share them, with their run hooks. */
    public InProcessRun shared(List<String> entries) {
        shared.addAll(entries);
        return this;
    }

    /** The run's own class path entries, after the shared ones (as a job's classes after Hadoop's). */
    public InProcessRun classPath(List<String> entries) {
        own.addAll(entries);
        return this;
    }

    public InProcessRun property(String name, String value) {
        properties.put(name, value);
        return this;
    }

    public InProcessRun env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** What its {@code --add-opens MODULE/PACKAGE=ALL-UNNAMED} ask for: {@code modulePackage} is "MODULE/PACKAGE". */
    public InProcessRun addOpens(String modulePackage) {
        addOpens.add(modulePackage);
        return this;
    }

    /** Its working directory; without one, a new directory that goes with the run. */
    public InProcessRun in(Path workingDirectory) {
        directory = workingDirectory;
        return this;
    }

    String mainClass() {
        return mainClass;
    }

    /** The request a manager would send, with stdout and stderr in {@code runDirectory}. */
    RunSpec spec(Path runDirectory) {
        List<String> classPath = new ArrayList<>(shared);
        classPath.addAll(own);
        String cwd = (directory != null ? directory : runDirectory).toAbsolutePath().toString();
        return new RunSpec(mainClass, classPath, List.copyOf(shared), args, Map.copyOf(properties), Map.copyOf(environment),
                cwd, StreamPath.unchecked("/dev/null"), StreamPath.unchecked(runDirectory.resolve("stdout").toString()),
                StreamPath.unchecked(runDirectory.resolve("stderr").toString()), RunKind.TASK, List.copyOf(addOpens), List.of(),
                StartupInputs.SLOT);
    }
}
