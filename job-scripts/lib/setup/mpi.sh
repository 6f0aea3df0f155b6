# shellcheck shell=bash
#
# lib/setup/mpi.sh -- make Open MPI's Java bindings (mpi.jar + libmpi_java.so) available; the MPI
# env files. Set-up, not the product: sourced by job-scripts/setup.sh. Source this file, then call:
#     jvmreuse_provision_mpi_java <repo-root>
#
# On success it writes <repo-root>/build/mpi-java.env (only rewritten when its content changes):
#     MPI_JAVA_JAR=<absolute path of mpi.jar>
#     MPI_JAVA_LIBDIR=<directory holding libmpi_java.so>   (for -Djava.library.path)
#     MPIRUN=<absolute path of mpirun>
#     OMPI_VERSION=<x.y.z>
# and installs the jar into the local Maven repository as org.open-mpi:mpi:site.
#
# Where mpi.jar comes from, in order:
#   1. $MPI_JAVA_JAR if set and the file exists;
#   2. an Open MPI built with --enable-mpi-java (HPC sites; Spack's openmpi+java): mpi.jar next to the libraries that
#      `ompi_info` reports (after a silent `module load openmpi` if mpirun is not on PATH);
#   3. Debian/Ubuntu as root: Debian's openmpi packages ship libmpi_java.so but not mpi.jar, so
#      the Java half is compiled from the distribution's own source package of the installed
#      version (deb-src is enabled for that), cached in build/mpi-java/.
# Open MPI's sources are fetched and compiled here; they are never part of this repository.
#
# No `set -e` here: this file is sourced. Every function returns non-zero on failure.
# Environment knobs: MPI_JAVA_JAR, MPI_JAVA_LIBDIR, JAVA_HOME (JDK used to compile),
# JVMREUSE_M2_REPO (local Maven repository, default from ~/.m2/settings.xml or ~/.m2/repository),
# JVMREUSE_MPI_JAVA_OPTIONAL=1 (the caller has another backend: problems are notes, not errors).

# shellcheck source=job-scripts/lib/core/log.sh
source "$(dirname "${BASH_SOURCE[0]}")/../core/log.sh"

_jvmreuse_mpi_log() { jvmreuse_log mpi-java "$@"; }
_jvmreuse_mpi_err() {
    if [[ ${JVMREUSE_MPI_JAVA_OPTIONAL:-0} == 1 ]]; then
        jvmreuse_log mpi-java "note: $*"
    else
        jvmreuse_log mpi-java "ERROR: $*"
    fi
}

# Print the JDK tool $1 (javac, jar): $JAVA_HOME/bin first, then PATH.
_jvmreuse_mpi_jdk_tool() {
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/$1" ]]; then
        printf '%s\n' "$JAVA_HOME/bin/$1"
    else
        command -v "$1"
    fi
}

# Local Maven repository directory.
_jvmreuse_mpi_m2_repo() {
    if [[ -n "${JVMREUSE_M2_REPO:-}" ]]; then
        printf '%s\n' "$JVMREUSE_M2_REPO"
        return 0
    fi
    local settings="$HOME/.m2/settings.xml" repo=""
    if [[ -f "$settings" ]]; then
        repo=$(sed -n 's:.*<localRepository>[[:space:]]*\([^<]*[^<[:space:]]\)[[:space:]]*</localRepository>.*:\1:p' "$settings" | head -n 1)
        repo=${repo//\$\{user.home\}/$HOME}
    fi
    printf '%s\n' "${repo:-$HOME/.m2/repository}"
}

# Find libmpi_java.so: in $1 (ompi_info libdir) or the usual places. Prints its directory.
_jvmreuse_mpi_find_libdir() {
    local d
    for d in "$@" /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
        [[ -n "$d" && -e "$d/libmpi_java.so" ]] && { printf '%s\n' "$d"; return 0; }
    done
    return 1
}

# Enable deb-src for the distribution's own archive (suites starting with VERSION_CODENAME,
# component main) in /etc/apt/sources.list.d/jvmreuse-deb-src.{sources,list}, then refresh only
# that file's indexes. Idempotent; does nothing when `apt-cache showsrc` already knows $1.
_jvmreuse_mpi_enable_deb_src() {
    local srcpkg=$1 srcver=$2 codename="" out
    if apt-cache showsrc "$srcpkg" 2>/dev/null | grep -qx "Version: $srcver"; then
        return 0
    fi
    # shellcheck disable=SC1091
    codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-${UBUNTU_CODENAME:-}}")
    if [[ -z "$codename" ]]; then
        _jvmreuse_mpi_err "cannot tell the distribution codename from /etc/os-release"
        return 1
    fi
    local d822=/etc/apt/sources.list.d/jvmreuse-deb-src.sources
    local dlist=/etc/apt/sources.list.d/jvmreuse-deb-src.list
    local f new=""
    shopt -s nullglob
    local d822_in=(/etc/apt/sources.list.d/*.sources)
    local list_in=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
    shopt -u nullglob
    # deb822 stanzas: copy every "Types: deb" stanza with component main, keep only our suites.
    out=""
    for f in "${d822_in[@]}"; do
        [[ "$f" == "$d822" ]] && continue
        out+=$(awk -v cn="$codename" '
            function flush(   n, i, s, suites) {
                if (types ~ /(^|[ \t])deb([ \t]|$)/ && comps ~ /(^|[ \t])main([ \t]|$)/ && enabled != "no" && uris != "") {
                    n = split(suitesl, s, /[ \t]+/); suites = ""
                    for (i = 1; i <= n; i++) if (s[i] == cn || index(s[i], cn "-") == 1) suites = suites " " s[i]
                    if (suites != "") {
                        printf "Types: deb-src\nURIs: %s\nSuites:%s\nComponents: main\n", uris, suites
                        if (signed != "") printf "Signed-By: %s\n", signed
                        printf "\n"
                    }
                }
                types = uris = suitesl = comps = signed = enabled = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            { key = tolower($1); sub(/^[^:]*:[ \t]*/, "", $0)
              if (key == "types:") types = $0; else if (key == "uris:") uris = $0
              else if (key == "suites:") suitesl = $0; else if (key == "components:") comps = $0
              else if (key == "signed-by:") signed = $0; else if (key == "enabled:") enabled = tolower($0) }
            END { flush() }' "$f")
    done
    if [[ -n "$out" ]]; then
        new=$d822
    else
        # One-line format: "deb [opts] URI SUITE COMPONENTS...".
        for f in "${list_in[@]}"; do
            [[ "$f" == "$dlist" || ! -f "$f" ]] && continue
            out+=$(awk -v cn="$codename" '
                $1 == "deb" {
                    i = 2; opts = ""
                    if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) { opts = opts $i " "; i++ } opts = opts $i " "; i++ }
                    uri = $i; suite = $(i + 1); hasmain = 0
                    for (j = i + 2; j <= NF; j++) if ($j == "main") hasmain = 1
                    if (hasmain && (suite == cn || index(suite, cn "-") == 1)) printf "deb-src %s%s %s main\n", opts, uri, suite
                }' "$f")$'\n'
        done
        out=$(printf '%s\n' "$out" | sed '/^$/d' | sort -u)
        [[ -n "$out" ]] && new=$dlist
    fi
    if [[ -z "$new" ]]; then
        _jvmreuse_mpi_err "found no '$codename ... main' apt source to derive a deb-src entry from"
        return 1
    fi
    if [[ ! -f "$new" ]] || [[ "$(cat "$new")" != "$out" ]]; then
        _jvmreuse_mpi_log "enabling deb-src in $new"
        printf '%s\n' "$out" >"$new" || return 1
    fi
    _jvmreuse_mpi_log "apt-get update (deb-src indexes only)"
    if ! apt-get -q=2 update -o Dir::Etc::sourcelist="$new" -o Dir::Etc::sourceparts=- \
            -o APT::Get::List-Cleanup=0 >/dev/null; then
        _jvmreuse_mpi_err "apt-get update for $new failed"
        return 1
    fi
    if ! apt-cache showsrc "$srcpkg" 2>/dev/null | grep -qx "Version: $srcver"; then
        _jvmreuse_mpi_err "source package $srcpkg=$srcver is not available from the configured archives"
        return 1
    fi
}

# Debian/Ubuntu as root: build <root>/build/mpi-java/mpi.jar from the source package matching the
# installed libmpi_java.so. Prints "<jar> <libdir>" on success. Fast path when already built.
_jvmreuse_mpi_build_from_deb() {
    local root=$1 ompi_libdir=$2
    local cache="$root/build/mpi-java" pkgs_missing=() p
    for p in openmpi-bin libopenmpi-dev dpkg-dev; do
        dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || pkgs_missing+=("$p")
    done
    if ((${#pkgs_missing[@]})); then
        _jvmreuse_mpi_log "apt-get install ${pkgs_missing[*]}"
        if ! DEBIAN_FRONTEND=noninteractive apt-get -q=2 install -y --no-install-recommends "${pkgs_missing[@]}" >/dev/null \
            && ! { apt-get -q=2 update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -q=2 install -y --no-install-recommends "${pkgs_missing[@]}" >/dev/null; }; then
            _jvmreuse_mpi_err "apt-get install ${pkgs_missing[*]} failed"
            return 1
        fi
        hash -r
    fi
    local libdir lib owner srcpkg srcver upver
    if ! libdir=$(_jvmreuse_mpi_find_libdir "$ompi_libdir"); then
        _jvmreuse_mpi_err "libmpi_java.so not found even after installing openmpi-bin libopenmpi-dev"
        return 1
    fi
    lib=$(readlink -f "$libdir/libmpi_java.so")
    owner=$(dpkg -S "$lib" 2>/dev/null | sed -n '/^diversion /d; s/: .*//p' | head -n 1) || owner=""
    owner=${owner%%,*}
    if [[ -z "$owner" ]]; then
        _jvmreuse_mpi_err "$lib does not belong to any Debian package; set MPI_JAVA_JAR"
        return 1
    fi
    read -r srcpkg srcver < <(dpkg-query -W -f='${source:Package} ${source:Version}\n' "$owner")
    upver=${srcver#*:}; upver=${upver%-*}
    local jar="$cache/mpi.jar" stamp="$cache/mpi.jar.version" want="$srcpkg $srcver"
    if [[ -f "$jar" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        printf '%s %s\n' "$jar" "$libdir"
        return 0
    fi
    local javac jartool
    javac=$(_jvmreuse_mpi_jdk_tool javac) || javac=""
    jartool=$(_jvmreuse_mpi_jdk_tool jar) || jartool=""
    if [[ -z "$javac" || -z "$jartool" ]]; then
        _jvmreuse_mpi_err "javac/jar not found: install a JDK 17+ (apt-get install openjdk-17-jdk-headless; dnf install java-17-openjdk-devel) or set JAVA_HOME"
        return 1
    fi
    _jvmreuse_mpi_log "building mpi.jar from Debian source $want (for $lib)"
    _jvmreuse_mpi_enable_deb_src "$srcpkg" "$srcver" || return 1
    local src="$cache/src" orig
    mkdir -p "$src" || return 1
    orig=$(find "$src" -maxdepth 1 -name "${srcpkg}_${upver}.orig.tar.*" ! -name '*.asc' -print -quit)
    if [[ -z "$orig" ]]; then
        _jvmreuse_mpi_log "apt-get source --download-only $srcpkg=$srcver"
        if ! (cd "$src" && apt-get -q=2 source --download-only -o APT::Sandbox::User=root "$srcpkg=$srcver" >/dev/null); then
            _jvmreuse_mpi_err "apt-get source --download-only $srcpkg=$srcver failed"
            return 1
        fi
        orig=$(find "$src" -maxdepth 1 -name "${srcpkg}_${upver}.orig.tar.*" ! -name '*.asc' -print -quit)
        [[ -n "$orig" ]] || { _jvmreuse_mpi_err "no ${srcpkg}_${upver}.orig.tar.* in $src"; return 1; }
    fi
    # Debian's patches for 4.1.x do not touch the Java sources; say so loudly if that changes.
    local deb
    deb=$(find "$src" -maxdepth 1 -name "${srcpkg}_${srcver#*:}.debian.tar.*" -print -quit)
    if [[ -n "$deb" ]] && tar xOf "$deb" --wildcards 'debian/patches/*' 2>/dev/null | grep -q '^+++ .*ompi/mpi/java/java/'; then
        _jvmreuse_mpi_log "WARNING: Debian patches touch ompi/mpi/java/java; they are not applied to mpi.jar"
    fi
    local work="$cache/work"
    rm -rf "$work" && mkdir -p "$work/src" "$work/classes" || return 1
    if ! tar xf "$orig" -C "$work/src" --wildcards --no-anchored '*/ompi/mpi/java/java/*.java'; then
        _jvmreuse_mpi_err "could not unpack ompi/mpi/java/java/*.java from $orig"
        return 1
    fi
    local -a sources=()
    mapfile -t sources < <(find "$work/src" -path '*/ompi/mpi/java/java/*.java' | sort)
    if ((${#sources[@]} == 0)); then
        _jvmreuse_mpi_err "$orig has no ompi/mpi/java/java/*.java"
        return 1
    fi
    # mpi/Constant.java is plain Java (its fields are filled in by libmpi_java at MPI.Init); nothing
    # is generated at build time. Class files for Java 8 so any JDK >= 8 runs them; fall back to 11
    # for a javac that dropped --release 8.
    local rel ok=""
    for rel in 8 11; do
        if "$javac" --release "$rel" -nowarn -Xlint:-options -encoding UTF-8 -d "$work/classes" "${sources[@]}" >"$work/javac.log" 2>&1; then
            ok=$rel
            break
        fi
    done
    if [[ -z "$ok" ]]; then
        _jvmreuse_mpi_err "javac failed on Open MPI's Java sources (see $work/javac.log)"
        return 1
    fi
    "$jartool" cf "$jar.tmp" -C "$work/classes" mpi || { _jvmreuse_mpi_err "jar failed"; return 1; }
    mv -f "$jar.tmp" "$jar" && printf '%s\n' "$want" >"$stamp" || return 1
    rm -rf "$work"
    _jvmreuse_mpi_log "built $jar (${#sources[@]} sources, --release $ok)"
    printf '%s %s\n' "$jar" "$libdir"
}

jvmreuse_provision_mpi_java() {
    local root=${1:-}
    if [[ -z "$root" || ! -d "$root" ]]; then
        _jvmreuse_mpi_err "usage: jvmreuse_provision_mpi_java <repo-root>"
        return 1
    fi
    root=$(cd "$root" && pwd -P) || return 1
    mkdir -p "$root/build" || return 1

    # Find Open MPI (a site module if mpirun is not on PATH).
    if ! command -v mpirun >/dev/null 2>&1 && type module >/dev/null 2>&1; then
        module load openmpi >/dev/null 2>&1 || true
    fi
    local info="" ompi_libdir="" ompi_prefix="" version="" java_bindings=""
    if command -v ompi_info >/dev/null 2>&1; then
        info=$(ompi_info --parsable --all 2>/dev/null) || info=""
        ompi_libdir=$(sed -n 's/^path:libdir://p' <<<"$info" | head -n 1)
        ompi_prefix=$(sed -n 's/^path:prefix://p' <<<"$info" | head -n 1)
        version=$(sed -n 's/^ompi:version:full://p' <<<"$info" | head -n 1)
        java_bindings=$(sed -n 's/^bindings:java://p' <<<"$info" | head -n 1)
    fi

    local jar="" libdir="" d
    # 1a. Explicit jar.
    if [[ -n "${MPI_JAVA_JAR:-}" ]]; then
        if [[ -f "$MPI_JAVA_JAR" ]]; then
            jar=$MPI_JAVA_JAR
        else
            _jvmreuse_mpi_log "MPI_JAVA_JAR=$MPI_JAVA_JAR does not exist; looking elsewhere"
        fi
    fi
    # 1b. Site Open MPI built with --enable-mpi-java.
    if [[ -z "$jar" && -n "$ompi_libdir" ]]; then
        for d in "$ompi_libdir" "$ompi_libdir/../share/java" "$ompi_libdir/../share/openmpi" \
                 "$ompi_libdir/../lib" "${ompi_prefix:-/nonexistent}/lib" "${ompi_prefix:-/nonexistent}/share/java"; do
            if [[ -f "$d/mpi.jar" ]]; then
                jar=$d/mpi.jar
                break
            fi
        done
    fi
    if [[ -n "$jar" ]]; then
        libdir=${MPI_JAVA_LIBDIR:-}
        if [[ -z "$libdir" ]] && ! libdir=$(_jvmreuse_mpi_find_libdir "$ompi_libdir" "$(dirname "$jar")"); then
            _jvmreuse_mpi_err "found $jar but no libmpi_java.so (looked in ${ompi_libdir:-<no ompi_info>}); set MPI_JAVA_LIBDIR"
            return 1
        fi
    # 2. Debian/Ubuntu as root: compile from the distribution's source package.
    elif [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
        local built
        built=$(_jvmreuse_mpi_build_from_deb "$root" "$ompi_libdir") || return 1
        jar=${built% *}
        libdir=${built##* }
        if [[ -z "$version" ]] && command -v ompi_info >/dev/null 2>&1; then
            hash -r
            version=$(ompi_info --parsable --all 2>/dev/null | sed -n 's/^ompi:version:full://p' | head -n 1)
        fi
    # 3. Nothing usable.
    else
        local why
        if ! command -v mpirun >/dev/null 2>&1; then
            why="no Open MPI found (mpirun is not on PATH and 'module load openmpi' did not provide it)"
        elif [[ "$java_bindings" != "yes" ]]; then
            why="the Open MPI on PATH ($(command -v mpirun), ${version:-unknown version}) was built without --enable-mpi-java"
        else
            why="the Open MPI on PATH ($(command -v mpirun), ${version:-unknown version}) has Java bindings but no mpi.jar near ${ompi_libdir:-its libdir}"
        fi
        _jvmreuse_mpi_err "$why."
        _jvmreuse_mpi_err "Need an Open MPI built with --enable-mpi-java. Either: 'module load' such an Open MPI;"
        _jvmreuse_mpi_err "or export MPI_JAVA_JAR=/path/to/mpi.jar (and MPI_JAVA_LIBDIR=<dir of libmpi_java.so>);"
        _jvmreuse_mpi_err "or, on Debian/Ubuntu, run this setup as root (it installs openmpi-bin libopenmpi-dev and builds mpi.jar)."
        return 1
    fi
    jar=$(readlink -f "$jar")
    libdir=$(cd "$libdir" && pwd -P) || return 1

    local mpirun
    if ! mpirun=$(command -v mpirun); then
        _jvmreuse_mpi_err "mpirun is not on PATH (have $jar); load/install the matching Open MPI"
        return 1
    fi
    [[ "$mpirun" == /* ]] || mpirun=$(readlink -f "$mpirun")
    if [[ -z "$version" ]]; then
        version=$("$mpirun" --version 2>/dev/null | sed -n '1s/.*[^0-9.]\([0-9][0-9.]*\)[^0-9.]*$/\1/p')
    fi

    # 4. Local Maven repository: org.open-mpi:mpi:site (skip when identical).
    local m2 installed
    m2=$(_jvmreuse_mpi_m2_repo)
    installed="$m2/org/open-mpi/mpi/site/mpi-site.jar"
    if ! cmp -s "$jar" "$installed"; then
        if ! command -v mvn >/dev/null 2>&1; then
            _jvmreuse_mpi_err "mvn not found: install maven (apt-get install maven) to register $jar"
            return 1
        fi
        _jvmreuse_mpi_log "mvn install:install-file org.open-mpi:mpi:site <- $jar"
        # Run outside the repository so Maven does not read the project's pom.xml; show its
        # output only on failure.
        local mvn_out
        if ! mvn_out=$(cd / && mvn -q -B install:install-file -Dfile="$jar" -DgroupId=org.open-mpi \
                -DartifactId=mpi -Dversion=site -Dpackaging=jar -DgeneratePom=true \
                ${JVMREUSE_M2_REPO:+-Dmaven.repo.local="$JVMREUSE_M2_REPO"} 2>&1); then
            printf '%s\n' "$mvn_out" >&2
            _jvmreuse_mpi_err "mvn install:install-file failed for $jar"
            return 1
        fi
    fi

    # Env file, rewritten only when it changes.
    local envfile="$root/build/mpi-java.env" content
    content=$(printf '%s=%q\n' MPI_JAVA_JAR "$jar" MPI_JAVA_LIBDIR "$libdir" MPIRUN "$mpirun" OMPI_VERSION "$version")
    if [[ ! -f "$envfile" ]] || [[ "$(cat "$envfile")" != "$content" ]]; then
        printf '%s\n' "$content" >"$envfile.tmp" && mv -f "$envfile.tmp" "$envfile" || return 1
    fi
    _jvmreuse_mpi_log "Open MPI ${version:-?}: $jar (libdir $libdir) -> $envfile"
}

# ---------------------------------------------------------------------------------------------
# The MPI env files the scripts read (job-scripts/lib/core/pool.sh, jvmreuse_load_mpi_env):
#     build/mpi.env     the site's MPI (the one on PATH, after a silent `module load openmpi`
#                       when there is none), written by jvmreuse_write_mpi_env
#     build/mpich.env   MPICH, with the native backend built against it (setup.sh --with-mpich),
#                       written by jvmreuse_setup_mpich
# Lines (NAME=value, bash-quoted): MPI_IMPL (openmpi|mpich|intel|unknown), MPI_LAUNCHER (openmpi:
# ORTE's mpirun; hydra: MPICH's/Intel's mpiexec), MPIRUN (the launcher's absolute path),
# MPI_VERSION, and where they exist MPI_NATIVE_LIB (the native backend built for this MPI; absent
# in mpi.env: Maven's pool-manager/target/native/libjvmreuse_mpi.so), MPI_JAVA_JAR,
# MPI_JAVA_LIBDIR, OMPI_VERSION (Open MPI's Java bindings).

# Writes $2 with the content $3 when it changed.
_jvmreuse_mpi_write_env() {
    local file=$1 content=$2
    if [[ ! -f $file ]] || [[ "$(cat "$file")" != "$content" ]]; then
        printf '%s\n' "$content" >"$file.tmp" && mv -f "$file.tmp" "$file" || return 1
    fi
}

# What launcher $1 is, from its --version: prints "<MPI_IMPL> <MPI_LAUNCHER> <version>".
_jvmreuse_mpi_identify() {
    local out version
    out=$("$1" --version 2>&1 </dev/null) || true
    case $out in
        *'Open MPI'* | *OpenRTE*)
            version=$(sed -n '1s/.*[^0-9.]\([0-9][0-9.]*\)[^0-9.]*$/\1/p' <<<"$out")
            printf 'openmpi openmpi %s\n' "${version:-unknown}"
            ;;
        *'Intel(R) MPI'*)
            version=$(sed -n '1s/.*Version \([^ ]*\).*/\1/p' <<<"$out")
            printf 'intel hydra %s\n' "${version:-unknown}"
            ;;
        *HYDRA*)
            version=$(sed -n 's/^ *Version: *\([^ ]*\).*/\1/p' <<<"$out" | head -n 1)
            printf 'mpich hydra %s\n' "${version:-unknown}"
            ;;
        *) return 1 ;;
    esac
}

# Finds the site's MPI launcher: mpirun, else mpiexec, on PATH (after a silent
# `module load openmpi`, then `module load mpich`, when neither is). Prints its absolute path.
jvmreuse_find_mpirun() {
    local m name
    if ! command -v mpirun >/dev/null 2>&1 && ! command -v mpiexec >/dev/null 2>&1 && type module >/dev/null 2>&1; then
        module load openmpi >/dev/null 2>&1 || module load mpich >/dev/null 2>&1 || true
    fi
    for name in mpirun mpiexec; do
        if m=$(command -v "$name"); then
            readlink -f "$m"
            return 0
        fi
    done
    return 1
}

# Writes <root>/build/mpi.env for the MPI on PATH; $2: "java" when Open MPI's Java bindings were
# provisioned (then build/mpi-java.env is folded in). Fails, saying what to do, without an MPI.
jvmreuse_write_mpi_env() {
    local root=$1 java=${2:-} mpirun impl launcher version content
    if ! mpirun=$(jvmreuse_find_mpirun); then
        _jvmreuse_mpi_err "no MPI found: neither mpirun nor mpiexec is on PATH (and 'module load openmpi'/'module load mpich' did not provide one)."
        _jvmreuse_mpi_err "Load or install an MPI with its mpicc (Open MPI or MPICH; as root on Debian: apt-get install openmpi-bin libopenmpi-dev, or run setup.sh --with-mpich)."
        return 1
    fi
    if ! read -r impl launcher version < <(_jvmreuse_mpi_identify "$mpirun"); then
        # A vendor launcher: pool.sh gives it Open MPI's options unless MPI_LAUNCHER says hydra.
        _jvmreuse_mpi_log "note: $mpirun is neither Open MPI's mpirun nor a Hydra mpiexec by its --version;" \
            "the pool passes it Open MPI's options (edit MPI_LAUNCHER in build/mpi.env: openmpi or hydra)"
        impl=unknown launcher='' version=unknown
    fi
    content=$(printf '%s=%q\n' MPI_IMPL "$impl" MPI_LAUNCHER "$launcher" MPIRUN "$mpirun" MPI_VERSION "$version")
    if [[ $java == java && -f $root/build/mpi-java.env ]]; then
        content+=$'\n'$(grep -E '^(MPI_JAVA_JAR|MPI_JAVA_LIBDIR|OMPI_VERSION)=' "$root/build/mpi-java.env")
    fi
    _jvmreuse_mpi_write_env "$root/build/mpi.env" "$content" || return 1
    _jvmreuse_mpi_log "$impl $version ($mpirun) -> $root/build/mpi.env"
}

# MPICH next to the site's MPI: installs mpich and libmpich-dev (root on Debian/Ubuntu) when
# mpiexec.hydra or mpicc.mpich is missing, builds the native MPI backend against it into
# <root>/build/mpich/libjvmreuse_mpi.so and writes <root>/build/mpich.env.
# MPICH_MPIEXEC / MPICH_MPICC name another MPICH (default mpiexec.hydra, mpicc.mpich).
jvmreuse_setup_mpich() {
    local root=$1 mpiexec=${MPICH_MPIEXEC:-mpiexec.hydra} mpicc=${MPICH_MPICC:-mpicc.mpich}
    local impl launcher version content javac java_home out=$1/build/mpich
    if ! command -v "$mpiexec" >/dev/null 2>&1 || ! command -v "$mpicc" >/dev/null 2>&1; then
        if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
            _jvmreuse_mpi_log "apt-get install mpich libmpich-dev"
            if ! DEBIAN_FRONTEND=noninteractive apt-get -q=2 install -y --no-install-recommends mpich libmpich-dev >/dev/null \
                && ! { apt-get -q=2 update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -q=2 install -y --no-install-recommends mpich libmpich-dev >/dev/null; }; then
                _jvmreuse_mpi_err "apt-get install mpich libmpich-dev failed"
                return 1
            fi
            hash -r
        fi
        if ! command -v "$mpiexec" >/dev/null 2>&1 || ! command -v "$mpicc" >/dev/null 2>&1; then
            _jvmreuse_mpi_err "MPICH is not installed ($mpiexec and $mpicc are needed): as root on Debian/Ubuntu setup.sh installs it (apt-get install mpich libmpich-dev);"
            _jvmreuse_mpi_err "elsewhere 'module load mpich' and set MPICH_MPIEXEC=mpiexec MPICH_MPICC=mpicc, or drop --with-mpich / JVMREUSE_WITH_MPICH"
            return 1
        fi
    fi
    mpiexec=$(readlink -f "$(command -v "$mpiexec")")
    if ! read -r impl launcher version < <(_jvmreuse_mpi_identify "$mpiexec") || [[ $launcher != hydra ]]; then
        _jvmreuse_mpi_err "$mpiexec is not MPICH's Hydra mpiexec (its --version does not say HYDRA)"
        return 1
    fi
    javac=$(_jvmreuse_mpi_jdk_tool javac) || { _jvmreuse_mpi_err "javac not found: install a JDK 17+ or set JAVA_HOME"; return 1; }
    java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$javac")")")}
    if ! make -s -C "$root/pool-manager/src/main/c" mpi MPICC="$mpicc" OUT="$out" JAVA_HOME="$java_home" >&2; then
        _jvmreuse_mpi_err "building the native MPI backend with $mpicc failed (see above)"
        return 1
    fi
    content=$(printf '%s=%q\n' MPI_IMPL "$impl" MPI_LAUNCHER hydra MPIRUN "$mpiexec" MPI_VERSION "$version" \
        MPI_NATIVE_LIB "$out/libjvmreuse_mpi.so")
    _jvmreuse_mpi_write_env "$root/build/mpich.env" "$content" || return 1
    _jvmreuse_mpi_log "MPICH $version ($mpiexec), native backend $out/libjvmreuse_mpi.so -> $root/build/mpich.env"
}
