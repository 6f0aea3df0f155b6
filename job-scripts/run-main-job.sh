#!/usr/bin/env bash
# run-main-job.sh -- the main job on one machine: set up and build what is missing
# (job-scripts/setup.sh), then a real one-machine Hadoop 2.2 cluster (ResourceManager,
# JobHistoryServer, two NodeManagers, a pool per NodeManager launched by mpirun) running an
# iterative PageRank four ways on the same cluster, interleaved: Hadoop's stock launches, Hadoop's
# uber mode (each job's tasks inside its new MRAppMaster JVM), the pool (the MRAppMaster and every
# task in a warm slot of its own: Hadoop's semantics, the default) and pooled uber (on request: the
# small job's tasks inside its MRAppMaster in a warm slot); every result is checked against the
# single-process reference (job-scripts/bench/iterative.sh in a short configuration). Prints the comparison table and where
# the CSV and PNG files are; exits non-zero if a job fails or a result fails verification. Its last
# line is the comparison's one-line result (`iterative: ...`), after the whole run's time.
#
# Chosen for the time budget (the whole main job well under 10 minutes on a 2-vCPU machine):
# PageRank only, stock, uber, pool and pooled-uber, 1 reducer (uber mode's limit), 2 and 4 iterations, one
# round, no warm-up run, a 5,000-node graph. The other
# benchmarks are NOT part of the main job; they stay runnable on their own:
#   job-scripts/bench/iterative.sh      full version (PageRank and K-means, 1 2 4 8 iterations, stock, uber,
#                                       pool and pooled-uber, 3 rounds; a larger PageRank, stock and pool)
#   job-scripts/bench/hadoop-tasks.sh   per-task launch times and word counts, stock vs pool
#   job-scripts/bench/jvm-startup.sh    `java` against `jvmreuse run` for single programs
#
# Settings (environment; defaults below): WORKLOADS, MODES, REDUCERS, ITERATIONS, ROUNDS, WARMUP,
# GRAPH_NODES, OUT_DIR (default build/main-job) and the others of bench/iterative.sh.
#
# Example: job-scripts/run-main-job.sh    or, shorter: ITERATIONS=2 GRAPH_NODES=2000 job-scripts/run-main-job.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
start=$EPOCHREALTIME
"$repo/job-scripts/setup.sh"
export WORKLOADS=${WORKLOADS:-pagerank} MODES=${MODES:-stock uber pool pooled-uber} REDUCERS=${REDUCERS:-1}
export ITERATIONS=${ITERATIONS:-2 4} ROUNDS=${ROUNDS:-1} WARMUP=${WARMUP:-0}
export GRAPH_NODES=${GRAPH_NODES:-5000} OUT_DIR=${OUT_DIR:-$repo/build/main-job}
mkdir -p "$OUT_DIR"
"$repo/job-scripts/bench/iterative.sh" | tee "$OUT_DIR/main-job.txt"
printf 'main job: %s in all (set-up included); load average now %s\n' \
    "$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", e - s }')" "$(cut -d' ' -f1-3 /proc/loadavg)"
# The comparison's one-line result (bench/iterative.sh's last line) stays the last line.
tail -n 1 "$OUT_DIR/main-job.txt"
