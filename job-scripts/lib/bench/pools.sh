# shellcheck shell=bash
#
# lib/bench/pools.sh -- pools, one per MPI backend, that a benchmark compares on, shared by
# job-scripts/bench/jvm-startup.sh and mpi-shuffle-transport.sh (sourced after lib/core/pool.sh):
#   bench_pools_dir NAME     a new dir ${TMPDIR:-/tmp}/jvmreuse-bench-NAME.XXXXXX in `work`; on exit
#                            every pool started in it is stopped and the dir removed
#   bench_pools_start verbose|quiet
#                            a pool per backend of BACKENDS (default "native java", the Java
#                            bindings only where they exist), in `work`/<backend>, listed in
#                            `backends`; quiet: no start-up output, a failure named in one line
#   bench_pool_socket BACKEND    the socket of that backend's pool

bench_pools_dir() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/jvmreuse-bench-$1.XXXXXX")
    backends=()
    trap _bench_pools_stop EXIT
    trap 'exit 130' INT TERM
}

bench_pool_socket() { printf '%s/%s/pool.sock' "$work" "$1"; }

bench_pools_start() {
    local b wanted
    read -r -a wanted <<<"${BACKENDS:-native java}"
    for b in "${wanted[@]}"; do
        if [[ $b == java && -z ${BACKENDS:-} && -z ${MPI_JAVA_JAR:-} ]]; then
            continue # no Java bindings here: the native backend alone
        fi
        if [[ $1 == verbose ]]; then
            JVMREUSE_SOCKET=$(bench_pool_socket "$b") JVMREUSE_MPI_BACKEND=$b jvmreuse_pool_start
        elif ! JVMREUSE_SOCKET=$(bench_pool_socket "$b") JVMREUSE_MPI_BACKEND=$b jvmreuse_pool_start >/dev/null 2>&1; then
            echo "the $b pool did not start (see $work/$b/logs)" >&2
            exit 1
        fi
        backends+=("$b")
    done
}

_bench_pools_stop() {
    local b
    for b in ${backends[@]+"${backends[@]}"}; do
        JVMREUSE_POOL_PID='' JVMREUSE_SOCKET=$(bench_pool_socket "$b") jvmreuse_pool_stop now || true
    done
    rm -rf "$work"
}
