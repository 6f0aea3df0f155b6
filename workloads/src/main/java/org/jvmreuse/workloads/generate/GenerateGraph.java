package org.jvmreuse.workloads.generate;

import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.jvmreuse.workloads.cli.Options;

/** generate-graph: writes a {@link GraphGenerator} graph as part files into a new directory. */
public final class GenerateGraph extends Configured implements Tool {
    public static final String USAGE = "generate-graph --output DIR --nodes N [--degree MEAN] [--dangling FRACTION]"
            + " [--seed S] [--parts P]";

    @Override
    public int run(String[] args) throws Exception {
        Options options = Options.parse(args, Set.of("output", "nodes", "degree", "dangling", "seed", "parts"));
        Path output = new Path(options.get("output"));
        int nodes = options.getAtLeast("nodes", 1);
        GraphGenerator graph = new GraphGenerator(nodes, options.getDouble("degree", 8),
                options.getDouble("dangling", 0.1), options.getLong("seed", 1));
        long start = System.currentTimeMillis();
        PartFiles.write(output.getFileSystem(getConf()), output, options.getAtLeast("parts", 1, 4), nodes, graph);
        System.out.printf("%d nodes written to %s in %d ms%n", nodes, output, System.currentTimeMillis() - start);
        return 0;
    }
}
