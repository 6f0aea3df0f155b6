package org.jvmreuse.workloads.generate;

import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.jvmreuse.workloads.cli.Options;

/** generate-points: writes {@link PointGenerator} blobs as part files into a new directory. */
public final class GeneratePoints extends Configured implements Tool {
    public static final String USAGE = "generate-points --output DIR --points N --k K --dimensions D [--sigma S]"
            + " [--spread R] [--seed S] [--parts P]";

    @Override
    public int run(String[] args) throws Exception {
        Options options = Options.parse(args,
                Set.of("output", "points", "k", "dimensions", "sigma", "spread", "seed", "parts"));
        Path output = new Path(options.get("output"));
        long points = options.getLong("points");
        PointGenerator generator = new PointGenerator(points, options.getAtLeast("k", 1),
                options.getAtLeast("dimensions", 1), options.getDouble("sigma", 1),
                options.getDouble("spread", 10), options.getLong("seed", 1));
        long start = System.currentTimeMillis();
        PartFiles.write(output.getFileSystem(getConf()), output, options.getAtLeast("parts", 1, 4), points, generator);
        System.out.printf("%d points written to %s in %d ms%n", points, output, System.currentTimeMillis() - start);
        return 0;
    }
}
