#!/usr/bin/env bash
# run-tests.sh -- set up what is missing, build, and run the whole test suite (unit tests and the
# integration tests with real mpirun pools). Prints Maven Surefire's summary.
# Setup is asked for MPICH too (--with-mpich: installed as root on Debian/Ubuntu when missing,
# build/mpich.env): the MPICH integration tests (MpichTest) launch pools with MPICH's Hydra and
# fail without it.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/job-scripts/setup.sh" --with-mpich
cd "$repo"
exec mvn -B verify "$@"
