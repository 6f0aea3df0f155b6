# shellcheck shell=bash
#
# lib/bench/pools.sh -- pools, one per MPI backend, that a benchmark compares on, shared by
# job-scripts/bench/jvm-startup.sh and mpi-shuffle-transport.sh (sourced after lib/core/pool.sh):
#   bench_pools_dir NAME [BASE]  a new dir BASE/jvmreuse-bench-NAME.XXXXXX (BASE default ${TMPDIR:-/tmp};
#                            a launch across hosts needs one they share) in `work`; on exit every
#                            pool started in it is stopped (bench_pools_stop) and the dir removed
#   bench_pools_start verbose|quiet [HOST...]
#                            a pool per backend of BACKENDS (default "native java", the Java
#                            bindings only where they exist), in `work`/<backend>, listed in
#                            `backends`; quiet: no start-up output, a failure named in one line.
#                            An entry BACKEND-PML (e.g. native-ucx) is a pool of that backend whose
#                            launch runs with Open MPI's pml PML (bench_variant_env)
#                            With HOSTs (this host first) each backend's launch spans them, one pool
#                            per host (JVMREUSE_NODES = their count, the MPI's own host list, e.g.
#                            jvmreuse-hosts mpi-env); the start waits for every host's pool and the
#                            stop asks the other hosts' pools first, both by running the client
#                            there with `bench_on_host HOST COMMAND...`, which the caller defines
#   bench_pool_socket BACKEND [HOST]  the socket of that backend's pool (of its pool on HOST, in
#                            `work`/<backend>/<host>/, when the launch spans hosts)
#   bench_pools_stop         what the exit does; a caller that sets its own EXIT trap calls it
#   bench_variant_env ENTRY COMMAND...  runs COMMAND (a function too) with ENTRY's MPI settings: for
#                            BACKEND-PML, OMPI_MCA_pml=PML, and for ucx OMPI_MCA_pml_ucx_tls and
#                            OMPI_MCA_pml_ucx_devices "any" unless the environment sets them (Open
#                            MPI 4.1's pml ucx takes only InfiniBand/RoCE transports by default and
#                            refuses to start without them, e.g. over Ethernet; docs/mpi.md, "Which
#                            pml"); for a plain BACKEND, the environment's own settings

bench_pools_dir() {
    work=$(mktemp -d "${2:-${TMPDIR:-/tmp}}/jvmreuse-bench-$1.XXXXXX")
    backends=()
    bench_pool_hosts=()
    trap bench_pools_stop EXIT
    trap 'exit 130' INT TERM
}

bench_variant_env() {
    local pml
    if [[ $1 != *-* ]]; then
        "${@:2}"
        return
    fi
    pml=${1#*-}
    if [[ $pml == ucx ]]; then
        OMPI_MCA_pml=$pml OMPI_MCA_pml_ucx_tls=${OMPI_MCA_pml_ucx_tls:-any} \
            OMPI_MCA_pml_ucx_devices=${OMPI_MCA_pml_ucx_devices:-any} "${@:2}"
    else
        OMPI_MCA_pml=$pml "${@:2}"
    fi
}

bench_pool_socket() { printf '%s/%s/%spool.sock' "$work" "$1" "${2:+$2/}"; }

# The socket template of backend $1's launch: each host's pool fills in its name for %h.
_bench_pool_template() { bench_pool_socket "$1" ${bench_pool_hosts[0]+%h}; }

bench_pools_start() {
    local b wanted nodes
    read -r -a wanted <<<"${BACKENDS:-native java}"
    bench_pool_hosts=("${@:2}")
    nodes=$((${#bench_pool_hosts[@]} > 1 ? ${#bench_pool_hosts[@]} : 1))
    for b in "${wanted[@]}"; do
        if [[ $b == java && -z ${BACKENDS:-} && -z ${MPI_JAVA_JAR:-} ]]; then
            continue # no Java bindings here: the native backend alone
        fi
        if [[ $1 == verbose ]]; then
            JVMREUSE_NODES=$nodes JVMREUSE_SOCKET=$(_bench_pool_template "$b") JVMREUSE_MPI_BACKEND=${b%%-*} \
                bench_variant_env "$b" jvmreuse_pool_start
        elif ! JVMREUSE_NODES=$nodes JVMREUSE_SOCKET=$(_bench_pool_template "$b") JVMREUSE_MPI_BACKEND=${b%%-*} \
            bench_variant_env "$b" jvmreuse_pool_start >/dev/null 2>&1; then
            echo "the $b pool did not start (see $(dirname "$(bench_pool_socket "$b" "${bench_pool_hosts[0]:-}")")/logs)" >&2
            exit 1
        fi
        backends+=("$b")
        _bench_pools_wait_far "$b"
    done
}

# Waits until backend $1's pools on the other hosts have started all their slots (at most
# JVMREUSE_START_TIMEOUT seconds, default 120, in all).
_bench_pools_wait_far() {
    local host status waited=0
    for host in ${bench_pool_hosts[@]+"${bench_pool_hosts[@]:1}"}; do
        until status=$(bench_on_host "$host" "$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$1" "$host")" status --json 2>/dev/null) &&
            [[ $(jvmreuse_status_field "$status" starting) == 0 ]]; do
            if ((waited++ >= ${JVMREUSE_START_TIMEOUT:-120} * 2)); then
                echo "the $1 pool on $host did not start (see $work/$1/$host/logs)" >&2
                exit 1
            fi
            sleep 0.5
        done
    done
}

bench_pools_stop() {
    local b host
    for b in ${backends[@]+"${backends[@]}"}; do
        for host in ${bench_pool_hosts[@]+"${bench_pool_hosts[@]:1}"}; do
            bench_on_host "$host" "$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$b" "$host")" stop --now >/dev/null 2>&1 || true
        done
        JVMREUSE_POOL_PID='' JVMREUSE_SOCKET=$(_bench_pool_template "$b") jvmreuse_pool_stop now || true
    done
    rm -rf "$work"
}
