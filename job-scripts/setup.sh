#!/usr/bin/env bash
# setup.sh -- idempotent preparation of a machine for JVM reuse: JDK 17+, Maven, gcc/make,
# Open MPI's Java bindings (build/mpi-java.env), then the build itself (mvn package, skipped
# when no source changed since the last one).
# As root on Debian/Ubuntu, missing packages are installed with apt-get; otherwise a clear error
# names what to install or `module load`. Re-running is fast (nothing is rebuilt).
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/.." && pwd -P)
# shellcheck source=lib/mpi-java.sh
. "$here/lib/mpi-java.sh"
# shellcheck source=lib/build.sh
. "$here/lib/build.sh"

step() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

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

have_jdk() { local m; m=$(javac_major); [[ -n "$m" && "$m" -ge 17 ]]; }
have_mvn() { command -v mvn >/dev/null 2>&1; }
have_cc() { command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; }

need "JDK 17+ (javac)" have_jdk default-jdk-headless "'module load java' (JDK 17 or newer) / set JAVA_HOME"
need "Maven (mvn)" have_mvn maven "'module load maven'"
need "gcc and make" have_cc build-essential "'module load gcc'"

step "Open MPI Java bindings: provisioning"
jvmreuse_provision_mpi_java "$root" || die "Open MPI Java bindings are not available (see above)"
step "Open MPI Java bindings: ok ($root/build/mpi-java.env)"
sed 's/^/[setup]   /' "$root/build/mpi-java.env"

step "build: mvn package (skipped when up to date)"
jvmreuse_build "$root" || die "the build failed (see above)"
step "build: ok"
