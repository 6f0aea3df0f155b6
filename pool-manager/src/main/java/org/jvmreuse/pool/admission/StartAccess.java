package org.jvmreuse.pool.admission;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The module access a slot's JVM gives every unnamed module from its start, beyond what the JDK's
 * modules declare: what its {@code --add-exports}/{@code --add-opens MODULE/PACKAGE=ALL-UNNAMED}
 * options gave it ("module/package" each). A slot cannot take that access away from a run, so
 * only a run that asks for all of it may use the slot (Hadoop 3.4's tasks and AMs all ask for two
 * exports: a pool started with them serves them, docs/hadoop.md). {@code exports}: exported but not
 * opened; {@code opens}: opened.
 */
public record StartAccess(Set<String> exports, Set<String> opens) {
    /** What this JVM's boot layer gives unnamed modules beyond its modules' declarations. */
    public static StartAccess ofThisJvm() {
        // An unnamed module no code uses: it sees only what is given to every unnamed module.
        Module probe = new URLClassLoader(new URL[0], null).getUnnamedModule();
        Set<String> exports = new TreeSet<>();
        Set<String> opens = new TreeSet<>();
        for (Module module : ModuleLayer.boot().modules()) {
            ModuleDescriptor declared = module.getDescriptor();
            for (String pkg : module.getPackages()) {
                boolean declaredOpen = declared.isOpen()
                        || declared.opens().stream().anyMatch(o -> !o.isQualified() && o.source().equals(pkg));
                boolean declaredExported = declaredOpen
                        || declared.exports().stream().anyMatch(e -> !e.isQualified() && e.source().equals(pkg));
                String name = module.getName() + "/" + pkg;
                if (module.isOpen(pkg, probe) && !declaredOpen) {
                    opens.add(name);
                } else if (module.isExported(pkg, probe) && !declaredExported) {
                    exports.add(name);
                }
            }
        }
        return new StartAccess(exports, opens);
    }

    /**
     * The first start option the run does not ask for ({@code --add-opens} covers an export too),
     * as a new JVM's command line would carry it; null when it asks for all.
     */
    public String notAskedFor(List<String> runOpens, List<String> runExports) {
        for (String name : opens) {
            if (!runOpens.contains(name)) {
                return option("--add-opens", name);
            }
        }
        for (String name : exports) {
            if (!runExports.contains(name) && !runOpens.contains(name)) {
                return option("--add-exports", name);
            }
        }
        return null;
    }

    private static String option(String option, String modulePackage) {
        return option + " " + modulePackage + "=ALL-UNNAMED";
    }

    @Override
    public String toString() {
        List<String> options = new ArrayList<>();
        opens.forEach(name -> options.add(option("--add-opens", name)));
        exports.forEach(name -> options.add(option("--add-exports", name)));
        return options.isEmpty() ? "none" : String.join(" ", options);
    }

    void writeTo(DataOutputStream out) throws IOException {
        for (Set<String> names : List.of(exports, opens)) {
            out.writeInt(names.size());
            for (String name : names) {
                out.writeUTF(name);
            }
        }
    }

    static StartAccess readFrom(DataInputStream in) throws IOException {
        return new StartAccess(readNames(in), readNames(in));
    }

    private static Set<String> readNames(DataInputStream in) throws IOException {
        Set<String> names = new TreeSet<>();
        for (int n = in.readInt(); n > 0; n--) {
            names.add(in.readUTF());
        }
        return names;
    }
}
