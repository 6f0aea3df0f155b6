#!/usr/bin/env bash
# run-tests.sh -- set up what is missing, build, and run the whole test suite (unit tests and the
# integration tests with real mpirun pools). Prints Maven Surefire's summary.
# Setup is asked for MPICH too (--with-mpich: installed as root on Debian/Ubuntu when missing,
# build/mpich.env): the MPICH integration tests (MpichTest) launch pools with MPICH's Hydra and
# fail without it. Arguments go to `mvn verify`; the environment of setup.sh (JVMREUSE_WITH_MPICH...)
# and of the tests (JVMREUSE_SLURM_*, JAVA_HOME) applies.
#
# Example: job-scripts/run-tests.sh    or one test: job-scripts/run-tests.sh -Dtest='org/jvmreuse/it/OneSlotPoolTest' -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/job-scripts/setup.sh" --with-mpich
# Commands only the tests use: python3 (a pseudo-terminal outside any session, RunStreamTest) and
# unshare (a client in another PID namespace, StdioTest); installed as root where apt-get is.
for entry in "python3 python3" "unshare util-linux"; do
    tool=${entry%% *} package=${entry#* }
    command -v "$tool" >/dev/null 2>&1 && continue
    if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null ||
            { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null; }
    fi
    command -v "$tool" >/dev/null 2>&1 || { echo "run-tests.sh: the tests need $tool (Debian/Ubuntu package $package)" >&2; exit 1; }
done
cd "$repo"
exec mvn -B verify "$@"
