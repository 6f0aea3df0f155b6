#!/usr/bin/env bash
# run-tests.sh -- set up what is missing, build, and run the whole test suite (unit tests and the
# integration tests with real mpirun pools). Prints Maven Surefire's summary.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/job-scripts/setup.sh"
cd "$repo"
exec mvn -B verify "$@"
