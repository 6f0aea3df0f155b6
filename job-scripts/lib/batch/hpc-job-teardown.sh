# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-teardown.sh -- stopping: the teardown by PID (also on signals and the time limit),
# leftovers, collecting logs and timings.
# Part of the HPC job library; sourced by hpc-job.sh, which documents the whole.

# ---------------------------------------------------------------------------------------------
# Stopping

# Stops everything the job started, by PID: the job's client, then the engine's teardown
# (core/engine.sh), graceful after a normal run (agents stop their NodeManagers, then RM/JHS,
# then the pools), fast after a signal or the time limit (everything at once, SIGKILL after 2 s:
# scancel gives only KillWait seconds). Its last step ends leftover job processes (jvmreuse_sweep,
# not this shell, its ancestors or its session): with proctrack/linuxproc, processes that left
# the job's process tree (task containers started with setsid) would otherwise survive the job.
_hpc_teardown() {
    local status=$? t0
    trap '' INT TERM
    [[ -n ${HPC_WORK:-} && -d ${HPC_WORK:-/nonexistent}/master ]] || return "$status"
    [[ -z ${HPC_TORN_DOWN:-} ]] || return "$status"
    HPC_TORN_DOWN=1
    _hpc_mode_post_hook "$status" || status=$?
    t0=$(date +%s)
    touch "$HPC_WORK/stop" 2>/dev/null || true
    if [[ -n ${HPC_FAST:-} ]]; then
        _hpc_log "stopping everything now (signal or time limit)"
    fi
    if [[ -n ${HPC_CHILD:-} ]] && _jvmreuse_alive "$HPC_CHILD"; then
        jvmreuse_terminate "$([[ -n ${HPC_FAST:-} ]] && echo 2 || echo 3)" _hpc_log "$HPC_CHILD"
    fi
    jvmreuse_engine_stop "$([[ -n ${HPC_FAST:-} ]] && echo fast || echo graceful)"
    wait 2>/dev/null || true
    rm -rf "$HPC_SOCKET_DIR" 2>/dev/null || true
    if [[ -n $JVMREUSE_LOCAL_DIR ]]; then
        rm -rf "$JVMREUSE_LOCAL_DIR/jvmreuse-$EUID-$HPC_JOB_ID" 2>/dev/null || true
    fi
    _hpc_collect "$status"
    _hpc_log "stopped everything in $(($(date +%s) - t0)) s; exit status $status; output in $HPC_OUT"
    return "$status"
}

_hpc_on_signal() {
    trap '' INT TERM
    HPC_FAST=1
    _hpc_log "received SIG$1 (scancel/pjdel, or the time limit is near): stopping everything"
    if [[ $1 == INT ]]; then exit 130; fi
    exit 143
}

# Gathers what a user looks at into the output dir: daemon, agent, pool and container logs (links
# when they are in the work dir inside it), the timing CSVs and pictures, a summary and phases.
_hpc_collect() {
    local status=$1 name f
    mkdir -p "$HPC_OUT/logs" "$HPC_OUT/timings"
    if [[ $HPC_WORK != "$HPC_OUT"/* ]]; then
        cp -r "$HPC_WORK/master/logs" "$HPC_OUT/logs/master" 2>/dev/null || true
        for name in "${HPC_NODES[@]}"; do
            mkdir -p "$HPC_OUT/logs/nodes/$name"
            cp -r "$HPC_WORK/nodes/$name"/{logs,pool-logs,container-logs} "$HPC_OUT/logs/nodes/$name/" 2>/dev/null || true
        done
        cp -r "$HPC_WORK/app-logs" "$HPC_OUT/logs/app-logs" 2>/dev/null || true
    else
        ln -sfn "../${HPC_WORK#"$HPC_OUT"/}/master/logs" "$HPC_OUT/logs/master" 2>/dev/null || true
        ln -sfn "../${HPC_WORK#"$HPC_OUT"/}/nodes" "$HPC_OUT/logs/nodes" 2>/dev/null || true
        [[ ! -d $HPC_WORK/app-logs ]] || ln -sfn "../${HPC_WORK#"$HPC_OUT"/}/app-logs" "$HPC_OUT/logs/app-logs" 2>/dev/null || true
    fi
    {
        printf 'phase,seconds\n'
        printf '%s\n' "${HPC_PHASES[@]}"
        printf 'teardown,%s\n' $(($(date +%s) - ${HPC_PHASE_T:-$(date +%s)}))
    } >"$HPC_OUT/timings/job-phases.csv" 2>/dev/null || true
    {
        printf 'job %s (%s) on %s nodes: %s\n' "$HPC_JOB_ID" "$HPC_SCHED" "${HPC_N:-?}" "${HPC_NODES[*]:-}"
        printf 'Hadoop %s, mode %s, workload %s, pool %s, MPI shuffle %s, slots %s, exit status %s\n' "$JVMREUSE_HADOOP_VERSION" \
            "$JVMREUSE_MODE" "$JVMREUSE_WORKLOAD" "$JVMREUSE_POOL" "$(jvmreuse_mpi_shuffle_on && echo 1 || echo 0)" "${HPC_SLOTS:-}" "$status"
        [[ -z ${HPC_VERIFIED:-} ]] || printf '%s\n' "$HPC_VERIFIED"
        printf 'memory: %s\n' "${HPC_MEMORY_LINE:-}"
        printf 'files:\n'
        (cd "$HPC_OUT" && find timings -maxdepth 1 -type f | sort | sed 's/^/  /')
        [[ ! -f $HPC_OUT/terasort-compare.txt ]] || cat "$HPC_OUT/terasort-compare.txt"
    } >"$HPC_OUT/summary.txt" 2>/dev/null || true
    for f in "$HPC_OUT"/timings/*.png; do
        [[ -f $f ]] && return 0
    done
    if [[ $JVMREUSE_WORKLOAD == pagerank || $JVMREUSE_WORKLOAD == kmeans ]] && ((status == 0)); then
        _hpc_log "WARNING: no timeline picture in $HPC_OUT/timings (does the node have fonts? see logs/workload.log)"
    fi
}
