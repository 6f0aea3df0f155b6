#!/usr/bin/env bash
# run-main-job.sh -- the main job on one machine: set up and build what is missing, start a pool
# under mpirun, and compare `java` with `jvmreuse run` side by side (job-scripts/bench/jvm-startup.sh).
# Settings: RUNS, WARMUP, SLOTS (see that script).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/job-scripts/setup.sh"
exec "$repo/job-scripts/bench/jvm-startup.sh"
