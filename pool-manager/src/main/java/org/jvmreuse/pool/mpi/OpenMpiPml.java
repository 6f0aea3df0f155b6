package org.jvmreuse.pool.mpi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which point-to-point layer (pml: ob1, ucx, cm...) Open MPI selected in this process, for logs
 * and status: a site that sets {@code OMPI_MCA_pml} sees what its pool runs on. Open MPI loads
 * its pml plug-ins as {@code mca_pml_NAME.so} and unloads those it did not select once MPI is
 * initialised, so the ones left in {@code /proc/self/maps} are the selected one. An MPI without
 * such plug-ins (MPICH, an Open MPI built with its components inside libmpi) has none.
 */
final class OpenMpiPml {
    private static final Pattern PML = Pattern.compile("/mca_pml_([a-z0-9]+)\\.so$");

    private OpenMpiPml() {
    }

    /** The pml names loaded in the process whose maps file is {@code maps}, comma-separated; "" if none or unreadable. */
    static String of(Path maps) {
        try (Stream<String> lines = Files.lines(maps)) {
            return from(lines);
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }

    /** The pml names in these lines of a maps file, sorted and comma-separated; "" if none. */
    static String from(Stream<String> lines) {
        return lines.map(PML::matcher).filter(Matcher::find).map(m -> m.group(1)).distinct().sorted()
                .collect(Collectors.joining(","));
    }
}
