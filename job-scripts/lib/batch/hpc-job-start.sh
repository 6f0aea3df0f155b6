# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-start.sh -- starting: the job as a place of the cluster engine (core/engine.sh: the
# pools' one MPI launch, the node agents, their pools' states, the stop of the node side), the
# time limit.
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
    if jvmreuse_mpi_shuffle_on; then
        JVMREUSE_POOL_EXTRA_ARGS+=(--service org.jvmreuse.shuffle.server.ShuffleManager
            --service-cp "$JVMREUSE_MPI_SHUFFLE_JAR:$JVMREUSE_HADOOP_LIB/*"
            --service-opt "conf-dir=$HPC_WORK/nodes/by-index/%n/conf")
    fi
    jvmreuse_warmup
    jvmreuse_hadoop_slot_jvm_opts "$HPC_WORK/master/conf/mapred-site.xml"
    [[ -z $JVMREUSE_HADOOP_SLOT_OPTS_WHY ]] || _hpc_log "$JVMREUSE_HADOOP_SLOT_OPTS_WHY"
    JVMREUSE_JVM_OPTS="${JVMREUSE_JVM_OPTS:-} $JVMREUSE_HADOOP_SLOT_OPTS" MPIRUN=$HPC_MPIRUN JVMREUSE_SOCKET="$HPC_SOCKET_DIR/pool%n.sock" JVMREUSE_POOL_LOG_DIR="$HPC_WORK/nodes/by-index/%n/pool-logs" \
        JVMREUSE_NODES=$nodes JVMREUSE_POOLS=$pools JVMREUSE_SLOTS=$HPC_SLOTS JVMREUSE_SPARES=0 JVMREUSE_SLOT_HEAP=$JVMREUSE_SLOT_HEAP \
        JVMREUSE_JAVA=$JVMREUSE_CLUSTER_JAVA_HOME/bin/java JVMREUSE_WARMUP_MAIN=$JVMREUSE_CLUSTER_WARMUP_MAIN \
        JVMREUSE_WARMUP_CP=$JVMREUSE_CLUSTER_WARMUP_CP JVMREUSE_WARMUP_MAIN_RUNS=${JVMREUSE_WARMUP_MAIN_RUNS:-2} \
        jvmreuse_pool_program || _hpc_die "cannot build the pool launch command"
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

# ---------------------------------------------------------------------------------------------
# The batch job as a place of the cluster engine (core/engine.sh): the master's daemons run here,
# the pools are one launch over the allocation, and each node's side is its agent (hpc-node.sh)
# on that node; the agents report their pools in <work>/nodes/<node>/pool.state.

# Sets the engine's globals for this job (after _hpc_places and _hpc_pick_ports).
_hpc_engine() {
    JVMREUSE_ENGINE_PLACE=_hpc_place
    JVMREUSE_ENGINE_LOG=_hpc_log
    JVMREUSE_ENGINE_MASTER=$HPC_WORK/master
    JVMREUSE_ENGINE_ADDR=$HPC_MASTER_ADDR
    JVMREUSE_ENGINE_NODES=$HPC_N
    JVMREUSE_ENGINE_POOLS_PID=$HPC_WORK/master/pids/pools.pid
    declare -gA JVMREUSE_ENGINE_PORTS=([rm_web]=$(_hpc_port rm_web) [jhs]=$(_hpc_port jhs) [nn]=$(_hpc_port nn)
        [nn_http]=$(_hpc_port nn_http))
    JVMREUSE_ENGINE_DEADLINE=$(($(date +%s) + JVMREUSE_START_TIMEOUT))
}

_hpc_place_pool_launch() {
    _hpc_pool_command
    _jvmreuse_private_dir "$HPC_SOCKET_DIR" || return 1
    _hpc_log "starting the pools ($HPC_N x $HPC_SLOTS slots$( ((HPC_SHARED_HOST == 0)) || echo ', all on the master: the nodes share one host'), heap $JVMREUSE_SLOT_HEAP, MPI shuffle $(jvmreuse_mpi_shuffle_on && echo on || echo off)," \
        "warm-up ${JVMREUSE_CLUSTER_WARMUP_MAIN:-none}) with $JVMREUSE_POOL_LAUNCHER; output in $HPC_WORK/master/logs/pools.log"
    JVMREUSE_ENGINE_POOL_CMD=("${HPC_POOL_CMD[@]}")
}

_hpc_place_start_nodes() {
    _hpc_log "started ResourceManager (pid $(cat "$HPC_WORK/master/pids/resourcemanager.pid")) and JobHistoryServer" \
        "(pid $(cat "$HPC_WORK/master/pids/historyserver.pid")) on $HPC_MASTER ($HPC_MASTER_ADDR)"
    _hpc_start_agents
}

# Node $1's pool as its agent found it (pool.state); undecided until the agent has written it.
_hpc_place_pool_state() {
    local name=${HPC_NODES[$1 - 1]} state
    if ! state=$(head -n 1 "$HPC_WORK/nodes/$name/pool.state" 2>/dev/null) || [[ -z $state ]]; then
        printf 'node %s: its agent has not decided yet' "$name"
        return 2
    fi
    printf 'node %s: %s' "$name" "$state"
    [[ $state == serving* ]]
}

# The time limit, and the agents (one per node, or the one launch of all of them).
_hpc_place_watch() {
    local f name
    _hpc_check_deadline
    for f in "$HPC_WORK"/master/pids/agent*.pid; do
        [[ -f $f ]] || continue
        name=$(basename "$f" .pid)
        _jvmreuse_alive "$(cat "$f")" && continue
        case $name in
            agent-*) _hpc_show_log "$HPC_WORK/nodes/${name#agent-}/logs/agent.log"; _hpc_log "ERROR: the agent of node ${name#agent-} exited during start-up" ;;
            *) _hpc_show_log "$HPC_WORK/master/logs/agents.log"; _hpc_log "ERROR: the agents' MPI launch exited during start-up" ;;
        esac
        return 1
    done
}

# The agents see <work>/stop within a second and stop their daemons (and, on other hosts, their
# pools); those that do not end in time are stopped by PID with what runs of the nodes here.
_hpc_place_stop_nodes() {
    local pids=() p alive waited=0
    touch "$HPC_WORK/stop" 2>/dev/null || true
    _hpc_log "stopping: NodeManagers (agents), then ResourceManager and JobHistoryServer, then the pools"
    mapfile -t pids < <(jvmreuse_live_pids "$HPC_WORK"/master/pids/agent*.pid)
    while ((${#pids[@]} > 0 && waited < JVMREUSE_STOP_TIMEOUT * 10 + 50)); do
        alive=()
        for p in "${pids[@]}"; do _jvmreuse_alive "$p" && alive+=("$p"); done
        ((${#alive[@]} > 0)) || break
        sleep 0.1
        waited=$((waited + 1))
    done
    mapfile -t pids < <(_hpc_place_node_pids)
    jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" _hpc_log ${pids[@]+"${pids[@]}"}
}

# The agents, and the NodeManager/DataNode PIDs of nodes that run on this host (their pid file
# says so).
_hpc_place_node_pids() {
    local f host
    host=$(uname -n)
    jvmreuse_live_pids "$HPC_WORK"/master/pids/agent*.pid
    for f in "$HPC_WORK"/nodes/*/pids/*.pid; do
        [[ -f $f && $(cat "${f%.pid}.host" 2>/dev/null) == "$host" ]] || continue
        jvmreuse_live_pids "$f"
    done
}

# Only the pools on this host can be asked from here; each agent stops its own host's.
_hpc_place_sockets() {
    local s
    for s in "$HPC_SOCKET_DIR"/pool*.sock; do
        [[ ! -S $s ]] || printf '%s\n' "$s"
    done
}

# A job's pid files live in its own work dir: a live PID in them is the job's.
_hpc_place_owns() { [[ $1 =~ ^[0-9]+$ ]]; }

# What marks this job's processes on this host (processes.sh's jvmreuse_leftovers): their
# environment names this job, by the scheduler's job id or by JVMREUSE_JOB_WORK=<work dir>.
_hpc_place_marks() {
    JVMREUSE_ENGINE_MARKS=("env:JVMREUSE_JOB_WORK=$HPC_WORK")
    case $HPC_SCHED in
        slurm) JVMREUSE_ENGINE_MARKS+=("env:SLURM_JOB_ID=$HPC_JOB_ID") ;;
        pjm) JVMREUSE_ENGINE_MARKS+=("env:PJM_JOBID=$HPC_JOB_ID") ;;
    esac
}

_hpc_show_log() {
    _hpc_log "the end of $1:"
    tail -n 25 "$1" 2>/dev/null | sed 's/^/    /' >&2 || true
}
