# shellcheck shell=bash
#
# lib/bench/cluster.sh -- the one-machine cluster a benchmark compares on, shared by
# job-scripts/bench/*.sh (sourced; the script has `repo`, `log` and `die`):
#   bench_cluster_dir NAME   a new dir ${TMPDIR:-/tmp}/jvmreuse-bench-NAME.XXXXXX in `dir`; on exit the
#                            cluster in it is stopped and the dir removed (kept, and said so, with KEEP=1)
#                            (across hosts, under BENCH_SHARED_DIR: hosts.sh)
#   bench_cluster_start ARGS...
#                            `jvmreuse-cluster start --pool ARGS...` in `dir`, its env.sh sourced,
#                            once every slot has warmed up (JVMREUSE_WAIT_WARMUP=1: the benchmarks
#                            compare warm pools; bench/allocation.sh measures the start itself), all
#                            slots warming up at once unless JVMREUSE_WARMUP_PARALLEL says otherwise;
#                            refuses to go on unless every pool serves (a "pool" run on pools that
#                            do not serve would be a stock run, and the comparison stock against stock).
#                            With HOSTS=N (N > 1): the same comparison on a cluster across N separate
#                            hosts of this machine, started as an HPC job would be (hosts.sh)
#   bench_client             the command prefix of the cluster's clients (hadoop, mapred, curl to its
#                            web services): empty on one host, a shell in the first host across hosts
#   bench_cluster_nm_logs    the NodeManagers' logs, into the array nm_logs
#   bench_cluster_stop_with PID
#                            a helper process the benchmark started (a sampler) that is stopped, by PID,
#                            before the cluster on exit
#   bench_cluster_stop_now   stops those helpers and the cluster now (the dir stays until exit), so that
#                            a benchmark can measure something else on an idle machine afterwards
# shellcheck disable=SC2154,SC2034 # repo, log and die come from the sourcing script; it reads bench_client and nm_logs

# shellcheck source=job-scripts/lib/bench/hosts.sh
source "$(dirname "${BASH_SOURCE[0]}")/hosts.sh"
HOSTS=${HOSTS:-1}
bench_client=()

bench_cluster_dir() {
    if ((HOSTS > 1)); then
        bench_hosts_dir "$1"
    else
        dir=$(mktemp -d "${TMPDIR:-/tmp}/jvmreuse-bench-$1.XXXXXX")
    fi
    trap _bench_cluster_stop EXIT
    trap 'exit 130' INT TERM
}

bench_cluster_start() {
    local status
    if ((HOSTS > 1)); then
        bench_hosts_start "$@"
        return
    fi
    JVMREUSE_WAIT_WARMUP=1 JVMREUSE_WARMUP_PARALLEL=${JVMREUSE_WARMUP_PARALLEL:-0} \
        "$repo/job-scripts/bin/jvmreuse-cluster" start --dir "$dir" --pool "$@"
    # shellcheck source=/dev/null
    source "$dir/env.sh"
    status=$("$repo/job-scripts/bin/jvmreuse-cluster" status --dir "$dir" 2>&1) || true
    if grep -q 'NOT SERVING' <<<"$status" || ! grep -q 'serving, slots' <<<"$status"; then
        printf '%s\n' "$status" >&2
        die "the pools do not serve (see above): a comparison would be stock against stock"
    fi
}

_bench_helpers=()
bench_cluster_stop_with() {
    _bench_helpers+=("$1")
}

bench_cluster_stop_now() {
    if ((${#_bench_helpers[@]})); then
        kill "${_bench_helpers[@]}" 2>/dev/null || true
        wait "${_bench_helpers[@]}" 2>/dev/null || true
        _bench_helpers=()
    fi
    if ((HOSTS > 1)); then
        bench_hosts_stop
    else
        "$repo/job-scripts/bin/jvmreuse-cluster" stop --dir "$dir" >/dev/null 2>&1 || true
    fi
}

bench_cluster_nm_logs() {
    if ((HOSTS > 1)); then
        bench_hosts_nm_logs
    else
        nm_logs=("$dir"/logs/nodemanager*.log)
    fi
}

_bench_cluster_stop() {
    bench_cluster_stop_now
    if [[ -z ${KEEP:-} ]]; then
        rm -rf "$dir"
    else
        log "kept $dir"
    fi
}
