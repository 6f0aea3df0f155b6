# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-start.sh -- starting: the master daemons, the pools (one MPI launch), the node agents,
# the wait until ready, the time limit.
# Part of the HPC job library; sourced by hpc-job.sh, which documents the whole.

# ---------------------------------------------------------------------------------------------
# Starting

# Runs "$@" in the background and waits for it, checking the time limit and staying responsive
# to TERM/INT (bash runs traps only between commands, so nothing long runs in the foreground).
# Output goes to file $1. Returns the command's status.
_hpc_run() {
    local log=$1 status=0
    shift
    "$@" </dev/null >>"$log" 2>&1 &
    HPC_CHILD=$!
    _hpc_wait_child || status=$?
    return "$status"
}

_hpc_wait_child() {
    local status=0
    while _jvmreuse_alive "$HPC_CHILD"; do
        _hpc_check_deadline
        sleep 0.5
    done
    wait "$HPC_CHILD" || status=$?
    HPC_CHILD=
    return "$status"
}

# The time limit: dies (tearing everything down) when fewer than JVMREUSE_WALLTIME_MARGIN s are left.
_hpc_check_deadline() {
    if [[ -n ${HPC_DEADLINE:-} ]] && (($(date +%s) >= HPC_DEADLINE)); then
        HPC_DEADLINE=
        _hpc_log "ERROR: the time limit is near (less than ${JVMREUSE_WALLTIME_MARGIN}s left): stopping everything"
        HPC_FAST=1
        exit 124
    fi
}

# Sets HPC_DEADLINE from JVMREUSE_WALLTIME or (Slurm) squeue's time left.
_hpc_set_deadline() {
    local left='' secs
    if [[ -n $JVMREUSE_WALLTIME ]]; then
        secs=$(_hpc_seconds "$JVMREUSE_WALLTIME")
        [[ -n $secs ]] || _hpc_die "JVMREUSE_WALLTIME='$JVMREUSE_WALLTIME' is not seconds or [[d-]hh:]mm:ss"
        HPC_DEADLINE=$((HPC_T0 + secs - JVMREUSE_WALLTIME_MARGIN))
    elif [[ $HPC_SCHED == slurm ]]; then
        left=$(squeue -h -j "$SLURM_JOB_ID" -o %L 2>/dev/null || true)
        secs=$(_hpc_seconds "$left")
        if [[ -n $secs ]]; then
            HPC_DEADLINE=$(($(date +%s) + secs - JVMREUSE_WALLTIME_MARGIN))
        fi
    fi
    if [[ -n ${HPC_DEADLINE:-} ]]; then
        _hpc_log "time limit: stopping at $(date -d "@$HPC_DEADLINE" +%H:%M:%S) at the latest (${JVMREUSE_WALLTIME_MARGIN}s before the end${left:+; squeue: $left left})"
        if ((HPC_DEADLINE <= $(date +%s) + 30)); then
            _hpc_die "the time limit leaves no time to run: ${left:-$JVMREUSE_WALLTIME} left, margin JVMREUSE_WALLTIME_MARGIN=${JVMREUSE_WALLTIME_MARGIN}s"
        fi
    else
        _hpc_log "time limit: unknown (set JVMREUSE_WALLTIME); relying on the scheduler's TERM signal"
    fi
}

# Starts the master daemons (RM, JHS, NameNode) in <work>/master (hadoop-daemons.sh).
_hpc_start_master() {
    local m=$HPC_WORK/master cp="$HPC_WORK/master/conf:$JVMREUSE_HADOOP_LIB/*"
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        jvmreuse_hdfs_webapps "$m"
        cp="$HPC_WORK/master/conf:$HPC_WORK/master/hdfs/webapps-root:$JVMREUSE_HADOOP_LIB/*"
        _hpc_log "formatting HDFS (NameNode on $HPC_MASTER_ADDR:$(_hpc_port nn))"
        if ! _hpc_run "$HPC_WORK/master/logs/namenode-format.log" "$JVMREUSE_CLUSTER_JAVA_HOME/bin/java" \
            -Dhadoop.root.logger=INFO,console -Djava.io.tmpdir="$HPC_WORK/tmp" -cp "$cp" \
            org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive; then
            tail -n 20 "$HPC_WORK/master/logs/namenode-format.log" >&2
            _hpc_die "HDFS could not be formatted (see $HPC_WORK/master/logs/namenode-format.log)"
        fi
        jvmreuse_start_namenode "$m" "$m/conf"
        # The JobHistoryServer creates its directories in HDFS at start: the NameNode must listen.
        local deadline=$(($(date +%s) + JVMREUSE_START_TIMEOUT)) nn
        nn=$(_hpc_port nn)
        until (exec 3<>"/dev/tcp/$HPC_MASTER_ADDR/$nn") 2>/dev/null; do
            if ! _jvmreuse_alive "$(cat "$HPC_WORK/master/pids/namenode.pid")"; then
                _hpc_show_log "$HPC_WORK/master/logs/namenode.log"
                _hpc_die "the NameNode exited during start-up"
            fi
            (($(date +%s) < deadline)) || _hpc_die "the NameNode does not listen on $HPC_MASTER_ADDR:$nn after ${JVMREUSE_START_TIMEOUT}s"
            _hpc_check_deadline
            sleep 0.5
        done
        _hpc_log "NameNode (pid $(cat "$HPC_WORK/master/pids/namenode.pid")) listens on $HPC_MASTER_ADDR:$nn"
    fi
    jvmreuse_start_resourcemanager "$m" "$m/conf"
    jvmreuse_start_historyserver "$m" "$m/conf"
    _hpc_log "started ResourceManager (pid $(cat "$HPC_WORK/master/pids/resourcemanager.pid")) and JobHistoryServer" \
        "(pid $(cat "$HPC_WORK/master/pids/historyserver.pid")) on $HPC_MASTER ($HPC_MASTER_ADDR)"
}

# Builds HPC_POOL_CMD: ONE launch of all pools, SLOTS+1 consecutive ranks per node
# (--ranks-per-pool), pool i = node i of the node list, socket <socket dir>/pool<i>.sock. No
# spare ranks: the batch request holds SLOTS+1 ranks per node. The command is the launcher of
# JVMREUSE_POOL_LAUNCHER (pool.sh's mpirun, srun, or the mpiexec command) for the launch's
# shape, then the program every rank runs (pool.sh's jvmreuse_pool_program).
_hpc_pool_command() {
    local per=$((HPC_SLOTS + 1)) nodes=$HPC_N pools=1 per_node launcher=()
    JVMREUSE_POOL_EXTRA_ARGS=(--ranks-per-pool "$per")
    if ((HPC_SHARED_HOST == 1)); then
        # All pools on the master's host, one launch (pool.sh adds --ranks-per-pool itself).
        nodes=1 pools=$HPC_N
        JVMREUSE_POOL_EXTRA_ARGS=()
    fi
    if [[ $JVMREUSE_MPI_SHUFFLE == 1 ]]; then
        JVMREUSE_POOL_EXTRA_ARGS+=(--service org.jvmreuse.shuffle.server.ShuffleManager
            --service-cp "$JVMREUSE_MPI_SHUFFLE_JAR:$JVMREUSE_HADOOP_LIB/*"
            --service-opt "conf-dir=$HPC_WORK/nodes/by-index/%n/conf")
    fi
    jvmreuse_warmup
    MPIRUN=$HPC_MPIRUN JVMREUSE_SOCKET="$HPC_SOCKET_DIR/pool%n.sock" JVMREUSE_POOL_LOG_DIR="$HPC_WORK/nodes/by-index/%n/pool-logs" \
        JVMREUSE_NODES=$nodes JVMREUSE_POOLS=$pools JVMREUSE_SLOTS=$HPC_SLOTS JVMREUSE_SPARES=0 JVMREUSE_SLOT_HEAP=$JVMREUSE_SLOT_HEAP \
        JVMREUSE_JAVA=$JVMREUSE_CLUSTER_JAVA_HOME/bin/java JVMREUSE_WARMUP_MAIN=$JVMREUSE_CLUSTER_WARMUP_MAIN \
        JVMREUSE_WARMUP_CP=$JVMREUSE_CLUSTER_WARMUP_CP JVMREUSE_WARMUP_MAIN_RUNS=${JVMREUSE_WARMUP_MAIN_RUNS:-5} \
        JVMREUSE_WARMUP_RUNS=${JVMREUSE_WARMUP_RUNS:-20} jvmreuse_pool_program || _hpc_die "cannot build the pool launch command"
    per_node=$JVMREUSE_POOL_RANKS_PER_NODE
    case $JVMREUSE_POOL_LAUNCHER in
        mpirun)
            MPIRUN=$HPC_MPIRUN jvmreuse_pool_mpirun
            launcher=("${JVMREUSE_POOL_MPIRUN[@]}")
            ;;
        srun)
            launcher=(srun --overlap --mpi=pmix --overcommit --kill-on-bad-exit=0 -N "$nodes" -n "$((per_node * nodes))"
                --ntasks-per-node="$per_node")
            if ((HPC_SHARED_HOST == 1)); then
                launcher+=(-w "$HPC_MASTER")
            fi
            ;;
        *)
            _hpc_mpiexec_cmd "$per_node" "$nodes"
            launcher=("${HPC_MPIEXEC_CMD[@]}")
            ;;
    esac
    HPC_POOL_CMD=("${launcher[@]}" "${JVMREUSE_POOL_PROGRAM[@]}")
}

_hpc_start_pools() {
    [[ $JVMREUSE_POOL == 1 ]] || return 0
    local log=$HPC_WORK/master/logs/pools.log
    _hpc_pool_command
    _jvmreuse_private_dir "$HPC_SOCKET_DIR" || return 1
    _hpc_log "starting the pools ($HPC_N x $HPC_SLOTS slots$( ((HPC_SHARED_HOST == 0)) || echo ', all on the master: the nodes share one host'), heap $JVMREUSE_SLOT_HEAP, MPI shuffle $([[ $JVMREUSE_MPI_SHUFFLE == 1 ]] && echo on || echo off)," \
        "warm-up ${JVMREUSE_CLUSTER_WARMUP_MAIN:-none}) with $JVMREUSE_POOL_LAUNCHER; output in $log"
    printf '%q ' "${HPC_POOL_CMD[@]}" >"$HPC_WORK/master/pools.cmd"
    JVMREUSE_JOB_WORK=$HPC_WORK "${HPC_POOL_CMD[@]}" </dev/null >"$log" 2>&1 &
    printf '%s\n' "$!" >"$HPC_WORK/master/pids/pools.pid"
}

# Starts one agent per node: srun steps (Slurm) or the ranks of one MPI launch (PJM).
_hpc_start_agents() {
    local i name nd
    if [[ $JVMREUSE_NM_LAUNCHER == srun ]]; then
        for i in "${!HPC_NODES[@]}"; do
            name=${HPC_NODES[i]}
            nd=$HPC_WORK/nodes/$name
            JVMREUSE_JOB_WORK=$HPC_WORK srun --overlap -N1 -n1 -w "$name" --kill-on-bad-exit=0 \
                bash "$HPC_LIB/hpc-node.sh" "$HPC_WORK" "$((i + 1))" </dev/null >"$nd/logs/srun.log" 2>&1 &
            printf '%s\n' "$!" >"$HPC_WORK/master/pids/agent-$name.pid"
        done
        _hpc_log "started a NodeManager agent on each node with srun --overlap -N1 -n1 -w NODE (logs: nodes/<node>/logs/agent.log, srun.log)"
    else
        _hpc_mpiexec_cmd 1 "$HPC_N"
        JVMREUSE_JOB_WORK=$HPC_WORK "${HPC_MPIEXEC_CMD[@]}" bash "$HPC_LIB/hpc-node.sh" "$HPC_WORK" \
            </dev/null >"$HPC_WORK/master/logs/agents.log" 2>&1 &
        printf '%s\n' "$!" >"$HPC_WORK/master/pids/agents.pid"
        _hpc_log "started the NodeManager agents as one rank per node: ${HPC_MPIEXEC_CMD[*]} (log: master/logs/agents.log)"
    fi
}

# Waits until every NodeManager is registered and the JobHistoryServer answers; fails early when
# a daemon, an agent or the pools' launch dies.
_hpc_wait_ready() {
    local deadline f name jhs
    deadline=$(($(date +%s) + JVMREUSE_START_TIMEOUT))
    jhs=$(_hpc_port jhs)
    until jvmreuse_rm_has_nodes "$HPC_MASTER_ADDR:$(_hpc_port rm_web)" "$HPC_N" && (exec 3<>"/dev/tcp/$HPC_MASTER_ADDR/$jhs") 2>/dev/null; do
        _hpc_check_deadline
        for f in "$HPC_WORK"/master/pids/*.pid; do
            name=$(basename "$f" .pid)
            if ! _jvmreuse_alive "$(cat "$f")"; then
                case $name in
                    pools) _hpc_show_log "$HPC_WORK/master/logs/pools.log"; _hpc_die "the pools' MPI launch exited during start-up" ;;
                    agent-*) _hpc_show_log "$HPC_WORK/nodes/${name#agent-}/logs/agent.log"; _hpc_die "the agent of node ${name#agent-} exited during start-up" ;;
                    agents) _hpc_show_log "$HPC_WORK/master/logs/agents.log"; _hpc_die "the agents' MPI launch exited during start-up" ;;
                    *) _hpc_show_log "$HPC_WORK/master/logs/$name.log"; _hpc_die "$name exited during start-up" ;;
                esac
            fi
        done
        if (($(date +%s) >= deadline)); then
            _hpc_show_log "$HPC_WORK/master/logs/resourcemanager.log"
            _hpc_die "not all $HPC_N NodeManagers registered with the ResourceManager within ${JVMREUSE_START_TIMEOUT}s (JVMREUSE_START_TIMEOUT); see $HPC_WORK/nodes/*/logs"
        fi
        sleep 0.5
    done
    for name in "${HPC_NODES[@]}"; do
        if [[ -f $HPC_WORK/nodes/$name/pool.state ]] && ! grep -q '^serving' "$HPC_WORK/nodes/$name/pool.state"; then
            _hpc_log "WARNING: the pool of node $name does not serve: its containers run the STOCK way ($(head -n 1 "$HPC_WORK/nodes/$name/pool.state"))"
        fi
    done
}

_hpc_show_log() {
    _hpc_log "the end of $1:"
    tail -n 25 "$1" 2>/dev/null | sed 's/^/    /' >&2 || true
}
