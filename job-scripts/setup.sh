#!/usr/bin/env bash
# setup.sh -- idempotent preparation of a machine for JVM reuse: JDK 17+, Maven, gcc/make, the
# site's MPI (mpirun/mpiexec and mpicc; Open MPI's Java bindings where they can be provisioned,
# optional when mpicc exists), written to build/mpi.env, then the build itself (mvn package,
# skipped when no source changed since the last one; it compiles the native MPI backend with
# mpicc). With --with-mpich (or JVMREUSE_WITH_MPICH=1) also MPICH: installed when missing, the
# native backend built against it (build/mpich/), build/mpich.env written; a pool runs under it
# with JVMREUSE_MPI_ENV=build/mpich.env (docs/mpi.md).
# As root on Debian/Ubuntu, missing packages are installed with apt-get; otherwise a clear error
# names what to install or `module load`. Re-running is fast (nothing is rebuilt).
# Environment: JAVA_HOME (the JDK to use), JVMREUSE_WITH_MPICH, PATH (the site's MPI, mpicc, mvn).
#
# Example: job-scripts/setup.sh    or, with MPICH too: job-scripts/setup.sh --with-mpich
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
# --help: the comment above, before anything runs (as root, anything else may install packages).
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/.." && pwd -P)
# shellcheck source=lib/setup/mpi.sh
. "$here/lib/setup/mpi.sh"
# shellcheck source=lib/setup/build.sh
. "$here/lib/setup/build.sh"

step() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

with_mpich=${JVMREUSE_WITH_MPICH:-0}
while (($#)); do
    case $1 in
        --with-mpich) with_mpich=1; shift ;;
        -h | --help)
            printf 'usage: job-scripts/setup.sh [--with-mpich]\n  --with-mpich  also set up MPICH (or JVMREUSE_WITH_MPICH=1): build/mpich.env\n'
            exit 0
            ;;
        *) die "unknown option '$1' (usage: job-scripts/setup.sh [--with-mpich])" ;;
    esac
done
[[ $with_mpich == [01] ]] || die "JVMREUSE_WITH_MPICH must be 0 or 1 (got '$with_mpich')"

can_apt() { [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; }

apt_updated=""
apt_install() {
    if [[ -z "$apt_updated" ]]; then
        apt-get -q=2 update >/dev/null || die "apt-get update failed"
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get -q=2 install -y --no-install-recommends "$@" >/dev/null \
        || die "apt-get install $* failed"
    hash -r
}

# Major version of the javac that will be used ($JAVA_HOME first), or empty.
javac_major() {
    local javac v
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/javac" ]]; then
        javac=$JAVA_HOME/bin/javac
    else
        javac=$(command -v javac) || return 0
    fi
    v=$("$javac" -version 2>&1 | sed -n 's/^javac \([0-9][0-9]*\).*/\1/p' | head -n 1)
    printf '%s\n' "$v"
}

# need <description> <check-command> <apt package> <module/other hint>
need() {
    local what=$1 check=$2 pkg=$3 hint=$4
    if "$check"; then
        step "$what: ok"
        return 0
    fi
    if can_apt; then
        step "$what: installing $pkg"
        apt_install "$pkg"
        "$check" || die "$what still missing after apt-get install $pkg"
        step "$what: installed"
    else
        die "$what is missing: install '$pkg' (as root: apt-get install $pkg) or $hint"
    fi
}

# A JDK 17 installed beside an older default (Ubuntu 22.04 and Debian 11 default to 11): its
# home, when $JAVA_HOME is unset and javac on PATH is older than 17.
installed_jdk17() {
    local m javac
    m=$(javac_major)
    [[ -z "${JAVA_HOME:-}" && ( -z "$m" || "$m" -lt 17 ) ]] || return 1
    for javac in /usr/lib/jvm/java-17-openjdk*/bin/javac /usr/lib/jvm/java-17*/bin/javac; do
        [[ -x $javac ]] && { dirname "$(dirname "$javac")"; return 0; }
    done
    return 1
}

# Whether a JDK 17+ is there; takes an installed JDK 17 (JAVA_HOME) over an older default.
have_jdk() {
    local m home
    if home=$(installed_jdk17); then
        export JAVA_HOME=$home
        step "JDK: using $home (javac on PATH is older): export JAVA_HOME=$home for the job scripts too"
    fi
    m=$(javac_major)
    [[ -n "$m" && "$m" -ge 17 ]]
}

# Every command the scripts call (jvmreuse_missing_tools, lib/setup/build.sh): installed as root with
# apt-get, else named with the package that provides it.
check_tools() {
    local missing tools=() deb=() rhel=() tool d r
    missing=$(jvmreuse_missing_tools) && { step "tools: ok"; return 0; }
    while read -r tool d r; do
        tools+=("$tool")
        deb+=("$d")
        rhel+=("$r")
    done <<<"$missing"
    if can_apt; then
        step "tools: ${tools[*]}: installing ${deb[*]}"
        apt_install "${deb[@]}"
        jvmreuse_missing_tools >/dev/null || die "tools still missing after apt-get install ${deb[*]}: ${tools[*]}"
        step "tools: installed"
    else
        die "missing commands: ${tools[*]}; install them (Debian/Ubuntu: apt-get install ${deb[*]}; RHEL family: dnf install ${rhel[*]})"
    fi
}

have_mvn() { command -v mvn >/dev/null 2>&1; }
have_cc() { command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; }

check_tools
# by name: default-jdk-headless is 11 on Ubuntu 22.04 and Debian 11
need "JDK 17+ (javac)" have_jdk openjdk-17-jdk-headless "'module load java' (JDK 17 or newer) / set JAVA_HOME (RHEL family: dnf install java-17-openjdk-devel)"
need "Maven (mvn)" have_mvn maven "'module load maven'"
need "gcc and make" have_cc build-essential "'module load gcc'"

# Open MPI's Java bindings (the "java" MPI backend): provisioned where possible. Without them the
# pool needs only the native backend, which the build compiles with the MPI's mpicc.
step "MPI: Open MPI Java bindings: provisioning"
java_bindings=""
# With an mpicc on PATH the Java bindings are optional: their problems are reported as notes.
optional=0
command -v mpicc >/dev/null 2>&1 && optional=1
if JVMREUSE_MPI_JAVA_OPTIONAL=$optional jvmreuse_provision_mpi_java "$root"; then
    java_bindings=java
    step "MPI: Open MPI Java bindings: ok ($root/build/mpi-java.env)"
elif command -v mpicc >/dev/null 2>&1; then
    step "MPI: note: no Open MPI Java bindings (see above); the pool uses the native MPI backend, built with $(command -v mpicc)"
else
    die "no usable MPI: Open MPI's Java bindings are not available (see above) and there is no mpicc on PATH to build the native MPI backend. Load or install an MPI with its compiler wrapper (module load openmpi|mpich; as root on Debian: apt-get install openmpi-bin libopenmpi-dev, or setup.sh --with-mpich)"
fi
jvmreuse_write_mpi_env "$root" "$java_bindings" || die "no MPI launcher found (see above)"
step "MPI: ok ($root/build/mpi.env; a pool uses another MPI with JVMREUSE_MPI_ENV, docs/mpi.md)"
sed 's/^/[setup]   /' "$root/build/mpi.env"

step "build: mvn package (skipped when up to date)"
jvmreuse_build "$root" || die "the build failed (see above)"
step "build: ok"

if [[ $with_mpich == 1 ]]; then
    step "MPICH: installing (if needed) and building the native MPI backend against it"
    jvmreuse_setup_mpich "$root" || die "MPICH could not be set up (see above)"
    step "MPICH: ok ($root/build/mpich.env; use it with JVMREUSE_MPI_ENV=build/mpich.env)"
    sed 's/^/[setup]   /' "$root/build/mpich.env"
fi
