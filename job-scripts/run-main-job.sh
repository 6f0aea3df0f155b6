#!/usr/bin/env bash
# run-main-job.sh -- the main job on one machine: set up and build what is missing, then
#   1. a real one-machine Hadoop 2.2 cluster (ResourceManager, JobHistoryServer, two NodeManagers,
#      a pool under mpirun per NodeManager) running the same MapReduce job with its tasks in pool
#      slots and on Hadoop's stock launch path, interleaved (job-scripts/bench/hadoop-tasks.sh);
#   2. `java` against `jvmreuse run` for single programs (job-scripts/bench/jvm-startup.sh).
# Each prints its comparison table. Settings: ROUNDS, MAPS (1); RUNS, WARMUP, SLOTS (2).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/job-scripts/setup.sh"
"$repo/job-scripts/bench/hadoop-tasks.sh"
exec "$repo/job-scripts/bench/jvm-startup.sh"
