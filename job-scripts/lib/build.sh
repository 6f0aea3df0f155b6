# shellcheck shell=bash
#
# build.sh -- build the Maven reactor when sources changed since the last build (or its
# outputs are gone).
#   jvmreuse_build <repo>

jvmreuse_build() {
    local repo=$1 stamp=$1/build/.built
    if [[ -f $stamp && -x $repo/pool-manager/target/native/jvmreuse && -d $repo/workloads/target/lib ]] && [[ -z $(find "$repo" -path "$repo/build" -prune -o -path '*/target' -prune \
        -o \( -name '*.java' -o -name '*.c' -o -name pom.xml -o -name Makefile \) -newer "$stamp" -print -quit) ]]; then
        return 0
    fi
    printf '[build] mvn package (first build downloads Maven dependencies)\n' >&2
    (cd "$repo" && mvn -B -q -DskipTests package) || { printf '[build] ERROR: mvn package failed\n' >&2; return 1; }
    mkdir -p "$repo/build"
    touch "$stamp"
}
