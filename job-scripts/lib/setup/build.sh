# shellcheck shell=bash
#
# lib/setup/build.sh -- build the Maven reactor when sources changed since the last build (or its
# outputs are gone). Set-up, not the product: sourced by job-scripts/setup.sh.
#   jvmreuse_build <repo>
#
# The reactor (root pom.xml) builds every module: pool-manager (pool jars, the jvmreuse client,
# the slot's JNI library), hadoop-patch (its jar, plus the Hadoop 2.2 runtime jars copied to
# hadoop-patch/target/hadoop/lib, the installation the one-machine cluster runs from),
# hadoop3-patch (Hadoop 3.5.0's jars in hadoop3-patch/target/hadoop/lib: --hadoop-version 3.5.0),
# mpi-shuffle (the Shuffle Manager and the reduce-side plug-in, one jar; mpi-shuffle3 the same
# for Hadoop 3.x), workloads, benchmarks
# (the programs job-scripts/bench/ runs beside the pool's and the shuffle's jars) and tests.
# build/.built marks the last successful build.
#   jvmreuse_missing_tools       the commands the job scripts call that are not on PATH

# Whether the outputs the scripts use exist (a `mvn clean` or a fresh module forces a build).
_jvmreuse_build_outputs_present() {
    local repo=$1
    [[ -x $repo/pool-manager/target/native/jvmreuse && -d $repo/workloads/target/lib ]] &&
        [[ -f $repo/hadoop-patch/target/hadoop/lib/hadoop-yarn-server-nodemanager-2.2.0.jar ]] &&
        [[ -d $repo/hadoop3-patch/target/hadoop/lib ]] &&
        [[ -n $(find "$repo/hadoop-patch/target" -maxdepth 1 -name 'hadoop-patch-*.jar' -print -quit 2>/dev/null) ]] &&
        [[ -n $(find "$repo/mpi-shuffle/target" -maxdepth 1 -name 'mpi-shuffle-*.jar' ! -name '*-sources.jar' \
            ! -name '*-tests.jar' -print -quit 2>/dev/null) ]] &&
        [[ -n $(find "$repo/mpi-shuffle3/target" -maxdepth 1 -name 'mpi-shuffle3-*.jar' -print -quit 2>/dev/null) ]] &&
        [[ -n $(find "$repo/benchmarks/target" -maxdepth 1 -name 'benchmarks-*.jar' ! -name '*-sources.jar' \
            ! -name '*-tests.jar' -print -quit 2>/dev/null) ]]
}

jvmreuse_build() {
    local repo=$1 stamp=$1/build/.built
    if [[ -f $stamp ]] && _jvmreuse_build_outputs_present "$repo" && [[ -z $(find "$repo" -path "$repo/build" -prune -o -path '*/target' -prune \
        -o \( -path '*/src/*' -type f -o -name pom.xml \) -newer "$stamp" -print -quit) ]]; then
        return 0
    fi
    printf '[build] mvn package (first build downloads Maven dependencies)\n' >&2
    (cd "$repo" && mvn -B -q -DskipTests package) || { printf '[build] ERROR: mvn package failed\n' >&2; return 1; }
    mkdir -p "$repo/build"
    touch "$stamp"
}

# The commands job-scripts/ calls (from a grep of its scripts; bash, Java, Maven, gcc/make and
# MPI are setup.sh's own checks), as "command debian-package rhel-package". Optional ones (ss,
# setsid: the scripts do without them) are not listed.
_JVMREUSE_TOOLS=(
    "curl curl curl"
    "awk gawk gawk"
    "sed sed sed"
    "grep grep grep"
    "find findutils findutils"
    "tar tar tar"
    "ps procps procps-ng"
    "hostname hostname hostname"
    "getent libc-bin glibc-common"
    "timeout coreutils coreutils"
    "mktemp coreutils coreutils"
    "nproc coreutils coreutils"
    "readlink coreutils coreutils"
    "stat coreutils coreutils"
)

# Prints one line "command debian-package rhel-package" for each tool not on PATH; returns 1
# when any is missing.
jvmreuse_missing_tools() {
    local entry tool missing=0
    for entry in "${_JVMREUSE_TOOLS[@]}"; do
        tool=${entry%% *}
        if ! command -v "$tool" >/dev/null 2>&1; then
            printf '%s\n' "$entry"
            missing=1
        fi
    done
    return "$missing"
}
