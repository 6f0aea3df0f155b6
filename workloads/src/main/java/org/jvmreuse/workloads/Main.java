package org.jvmreuse.workloads;

import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.jvmreuse.workloads.breakdown.BreakdownCommand;
import org.jvmreuse.workloads.chart.ChartCommand;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.generate.GenerateGraph;
import org.jvmreuse.workloads.generate.GeneratePoints;
import org.jvmreuse.workloads.kmeans.KMeansCheck;
import org.jvmreuse.workloads.kmeans.KMeansDriver;
import org.jvmreuse.workloads.pagerank.PageRankCheck;
import org.jvmreuse.workloads.pagerank.PageRankDriver;
import org.jvmreuse.workloads.timing.JobTime;

/**
 * The workloads jar's main class: {@code hadoop jar workloads.jar COMMAND [-D key=value ...] OPTIONS}.
 * Hadoop's generic options (-D, -conf, -fs, ...) come right after the command.
 */
public final class Main {
    private static final String USAGE = String.join("\n",
            "usage: " + PageRankDriver.USAGE,
            "       " + KMeansDriver.USAGE,
            "       " + GenerateGraph.USAGE,
            "       " + GeneratePoints.USAGE,
            "       " + PageRankCheck.USAGE,
            "       " + KMeansCheck.USAGE,
            "       " + ChartCommand.USAGE,
            "       " + BreakdownCommand.USAGE,
            "       " + JobTime.USAGE);

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args));
    }

    static int run(String[] args) throws Exception {
        // Pictures are drawn off-screen; without this a stale DISPLAY would be tried.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            System.out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) {
            System.out.println(USAGE);
            return 0;
        }
        try {
            return switch (args[0]) {
                case "pagerank" -> tool(new PageRankDriver(), rest);
                case "kmeans" -> tool(new KMeansDriver(), rest);
                case "generate-graph" -> tool(new GenerateGraph(), rest);
                case "generate-points" -> tool(new GeneratePoints(), rest);
                case "verify-pagerank" -> tool(new PageRankCheck(), rest);
                case "verify-kmeans" -> tool(new KMeansCheck(), rest);
                case "chart" -> ChartCommand.run(rest);
                case "breakdown" -> BreakdownCommand.run(rest);
                case "job-time" -> tool(new JobTime(), rest);
                default -> throw new UsageException("unknown command " + args[0]);
            };
        } catch (UsageException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.err.println(USAGE);
            return 2;
        }
    }

    private static int tool(Tool tool, String[] args) throws Exception {
        return ToolRunner.run(new Configuration(), tool, args);
    }
}
