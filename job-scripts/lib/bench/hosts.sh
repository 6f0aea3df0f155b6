# shellcheck shell=bash
#
# lib/bench/hosts.sh -- the cluster a benchmark compares on, across HOSTS separate hosts on this one
# machine (sourced by bench/cluster.sh when HOSTS > 1; the script has `repo`, `log` and `die`):
# the multi-host testbed's hosts n1..nHOSTS (job-scripts/testbed/jvmreuse-hosts, each with its own
# name, address, /tmp and /dev/shm; LINK_RATE shapes every host's link, e.g. 1gbit), a Slurm
# testbed with one slurmd per host, and the batch job script job-scripts/sbatch/jvmreuse-hadoop.sbatch
# submitted with sbatch -N HOSTS in interactive mode: the ResourceManager and JobHistoryServer on
# n1, one NodeManager and one pool per host, the pools ranks of one launch by Slurm's srun, every
# daemon on its host's address. This is the cluster an HPC user gets from an allocation; the
# benchmark's clients run in n1 (`bench_client`), as they would on the allocation's first node.
#
#   bench_hosts_dir NAME      a new dir under BENCH_SHARED_DIR (default /var/tmp: the hosts share
#                             it, as nodes share a parallel file system; each host's /tmp is its own)
#   bench_hosts_start ARGS... the hosts, Slurm and the job; returns when the job wrote its env.sh
#                             (every pool warm: JVMREUSE_WAIT_WARMUP=1) and sources it. ARGS are
#                             jvmreuse-cluster's: --nodemanagers (one per host here: ignored),
#                             --mpi-shuffle, --no-mpi-shuffle
#   bench_hosts_nm_logs       the NodeManagers' logs, into the array nm_logs
#   bench_hosts_stop          ends the job (its cluster stops itself, by PID), then Slurm and the hosts
# shellcheck disable=SC2154,SC2034 # repo, dir, log, die and HOSTS come from the sourcing script; it reads bench_client and nm_logs

_bench_hosts_tool() { "$repo/job-scripts/testbed/jvmreuse-hosts" "$@"; }
_bench_slurm_tool() { "$repo/job-scripts/testbed/jvmreuse-slurm-testbed" "$@"; }

bench_hosts_dir() {
    dir=$(mktemp -d "${BENCH_SHARED_DIR:-/var/tmp}/jvmreuse-bench-$1.XXXXXX")
    # The Slurm testbed under it serves munge and slurmd users: others must reach in.
    chmod 755 "$dir"
}

bench_hosts_start() {
    local hosts=${HOSTS:?} shuffle=1 id
    [[ $hosts =~ ^[2-9]$ ]] || die "HOSTS must be 1..9 (got $hosts)"
    while (($#)); do
        case $1 in
            --nodemanagers) shift 2 ;;
            --mpi-shuffle) shuffle=1; shift ;;
            --no-mpi-shuffle) shuffle=0; shift ;;
            *) die "bench_hosts_start: $1 has no counterpart across hosts" ;;
        esac
    done
    [[ $EUID -eq 0 ]] || die "HOSTS=$hosts needs root (the testbed's hosts are network, UTS and mount namespaces)"
    log "$hosts testbed hosts${LINK_RATE:+, links shaped to $LINK_RATE}"
    _bench_hosts_tool start --hosts "$hosts" ${LINK_RATE:+--rate "$LINK_RATE"} >"$dir/hosts.log" 2>&1 ||
        { cat "$dir/hosts.log" >&2; die "the testbed hosts did not start"; }
    _bench_hosts_up=1
    log "a Slurm testbed on them (one slurmd per host)"
    JVMREUSE_SLURM_MAX_TIME=UNLIMITED _bench_slurm_tool start --dir "$dir/slurm" --hosts --nodes "$hosts" --memory-mb 8192 >"$dir/slurm.log" 2>&1 ||
        { tail -n 20 "$dir/slurm.log" >&2; die "the Slurm testbed did not start (its logs: $dir/slurm/log)"; }
    export SLURM_CONF=$dir/slurm/etc/slurm.conf
    # The job's cluster: the batch defaults but what the one-host benchmark cluster has too (pools
    # warmed with Hadoop's TaskWarmup before the NodeManagers take work, all slots at once).
    id=$(sbatch --parsable -N "$hosts" --time=UNLIMITED --chdir="$dir" --output="$dir/job.out" \
        --export="ALL,JVMREUSE_HOME=$repo,JVMREUSE_MODE=interactive,JVMREUSE_POOL=1,JVMREUSE_OUTPUT_DIR=$dir/job,JVMREUSE_WAIT_WARMUP=1,JVMREUSE_WARMUP_MAIN=${JVMREUSE_WARMUP_MAIN:-task},JVMREUSE_WARMUP_PARALLEL=${JVMREUSE_WARMUP_PARALLEL:-0},JVMREUSE_MPI_SHUFFLE=$shuffle" \
        "$repo/job-scripts/sbatch/jvmreuse-hadoop.sbatch") || die "sbatch refused the cluster's job"
    _bench_hosts_job=${id%%;*}
    log "cluster job $_bench_hosts_job: waiting for its env.sh (every pool warm)"
    until [[ -s $dir/job/env.sh ]]; do
        if ! squeue -h -j "$_bench_hosts_job" 2>/dev/null | grep -q .; then
            tail -n 30 "$dir/job.out" >&2
            die "the cluster job $_bench_hosts_job ended before its cluster was ready (output: $dir/job.out)"
        fi
        sleep 1
    done
    # shellcheck source=/dev/null
    source "$dir/job/env.sh"
    local state node serving=0
    for state in "$dir"/job/run/nodes/*/pool.state; do
        node=$(basename "$(dirname "$state")")
        grep -q '^serving' "$state" || die "the pool of $node does not serve ($(head -n 1 "$state")): a comparison would be stock against stock"
        serving=$((serving + 1))
    done
    ((serving == hosts)) || die "$serving of $hosts pools serve: a comparison would be partly stock against stock"
    bench_client=("$repo/job-scripts/testbed/jvmreuse-hosts" exec n1)
}

bench_hosts_nm_logs() {
    nm_logs=("$dir"/job/run/nodes/*/logs/nodemanager.log)
}

bench_hosts_stop() {
    local i
    if [[ -n ${_bench_hosts_job:-} ]]; then
        # A ready cluster ends itself (with its logs collected); one still starting is cancelled.
        if [[ -s $dir/job/env.sh ]]; then
            touch "$dir/job/end"
        else
            scancel "$_bench_hosts_job" 2>/dev/null || true
        fi
        for ((i = 0; i < 120; i++)); do
            squeue -h -j "$_bench_hosts_job" 2>/dev/null | grep -q . || break
            sleep 1
        done
        if ((i == 120)); then
            log "the cluster job $_bench_hosts_job did not end within 120 s: cancelling it"
            scancel "$_bench_hosts_job" 2>/dev/null || true
        fi
        _bench_hosts_job=
    fi
    if [[ -d $dir/slurm ]]; then
        _bench_slurm_tool stop --dir "$dir/slurm" >>"$dir/slurm.log" 2>&1 || log "warning: the Slurm testbed's stop failed ($dir/slurm.log)"
    fi
    if [[ -n ${_bench_hosts_up:-} ]]; then
        _bench_hosts_tool stop >>"$dir/hosts.log" 2>&1 || log "warning: the testbed hosts' stop failed ($dir/hosts.log)"
        _bench_hosts_up=
    fi
}
