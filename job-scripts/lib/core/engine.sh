# shellcheck shell=bash
#
# engine.sh -- the cluster engine: the one start, readiness and teardown sequence of a Hadoop
# cluster with JVM Reuse pools over a list of nodes, for every place it runs: this machine alone
# (cluster/local-cluster.sh, bin/jvmreuse-cluster) and a Slurm or PJM allocation, on real nodes or
# on the testbed's hosts (batch/hpc-job*.sh). Sourced (core.sh); callers use `set -euo pipefail`.
#
#   jvmreuse_engine_start      HDFS (optional: format, NameNode, its port), the pools (ONE launch,
#                              in the background: warm-up overlaps the daemons' start), the
#                              ResourceManager and JobHistoryServer, the node side of every node,
#                              then the wait until ready: N NodeManagers registered, the JHS
#                              answering, a live DataNode (HDFS), every node's pool decided.
#                              Status 1, after saying why, when a daemon died or time ran out;
#                              the caller then runs jvmreuse_engine_stop
#   jvmreuse_engine_stop graceful|fast
#                              the teardown, by PID: the node side of every node, then the JHS and
#                              RM, the pools (each asked, then the launch), HDFS, then the leftover
#                              sweep; "fast" (a signal, a time limit): everything at once, SIGKILL
#                              after 2 s
#   jvmreuse_engine_failed NAME WHY   reports that daemon NAME failed, with the end of its log
#                              (<master>/logs/NAME.log)
#   jvmreuse_engine_pids FILE...  the PIDs in the pid files that run and are the cluster's (P_owns)
#   jvmreuse_engine_pool_state SOCKET
#                              one line on the pool at SOCKET; status 0 it serves (or, with
#                              JVMREUSE_WAIT_WARMUP=0, answers while its slots warm up), 1 it
#                              answers and cannot serve, 2 not (yet) answering
#
# A pool that does not serve never fails a start: its NodeManager's executor runs containers the
# stock way, and the start ends with a loud warning. A launch that exits during the start leaves
# <master>/pools.exited (the node agents on other hosts read it) and the same warning.
#
# The place: what differs between the places is only how a step is done there; the deployment
# names itself in JVMREUSE_ENGINE_PLACE=P and defines
#   P_pool_launch        fills JVMREUSE_ENGINE_POOL_CMD: core/pool.sh's program behind this place's
#                        launcher (mpirun; srun; the MPI's mpiexec) and makes the pools' dirs
#   P_start_nodes        starts the node side of every node (NodeManager, with HDFS a DataNode):
#                        in this shell (this machine), `srun -w NODE` per node, or one MPI launch
#   P_pool_state I       the state of node I's pool (1..N), as jvmreuse_engine_pool_state
#   P_watch              each round of a wait: status 1, after saying why, when a part of this
#                        place has died or its time limit is near
#   P_stop_nodes         the graceful teardown's first phase: the node side of every node
#   P_node_pids          the PIDs of node daemons this host can stop itself (for "fast")
#   P_sockets            the pool sockets this host can reach, one a line (the stop asks them)
#   P_owns PID           whether the live PID from one of its pid files is this cluster's (a stale
#                        pid file must never make the stop signal a process that reuses the PID)
#   P_marks              fills JVMREUSE_ENGINE_MARKS: what marks the cluster's leftover processes
#                        on this host (core/processes.sh's jvmreuse_leftovers)
# and sets
#   JVMREUSE_ENGINE_LOG        the log function
#   JVMREUSE_ENGINE_MASTER     the master's dir: conf/, pids/, logs/ of the RM, JHS and NameNode
#   JVMREUSE_ENGINE_ADDR       the master's address (its daemons' ports are checked there)
#   JVMREUSE_ENGINE_NODES      the number of nodes (NodeManagers)
#   JVMREUSE_ENGINE_PORTS      associative array: rm_web, jhs, nn, nn_http (HDFS)
#   JVMREUSE_ENGINE_POOLS_PID  the pid file of the pools' launch; its output goes to
#                              <master>/logs/pools.log, its command line to <master>/pools.cmd
#   JVMREUSE_ENGINE_DEADLINE   when the start gives up (seconds since the epoch)
# and the settings JVMREUSE_POOL, JVMREUSE_HDFS, JVMREUSE_WAIT_WARMUP, JVMREUSE_STOP_TIMEOUT.

_jvmreuse_engine_log() { "$JVMREUSE_ENGINE_LOG" "$@"; }
_jvmreuse_engine_place() {
    local step=$1
    shift
    "${JVMREUSE_ENGINE_PLACE}_$step" "$@"
}

jvmreuse_engine_failed() {
    local log=$JVMREUSE_ENGINE_MASTER/logs/$1.log
    _jvmreuse_engine_log "ERROR: $1 $2; the end of $log:"
    tail -n 25 "$log" 2>/dev/null | sed 's/^/    /' >&2 || true
}

# The pools' launch ran and exited: its marker, for the node agents, with the end of its output.
_jvmreuse_engine_launch_exited() {
    local marker=$JVMREUSE_ENGINE_MASTER/pools.exited pid
    [[ -f $JVMREUSE_ENGINE_POOLS_PID && ! -f $marker ]] || return 1
    pid=$(cat "$JVMREUSE_ENGINE_POOLS_PID" 2>/dev/null || true)
    ! _jvmreuse_alive "$pid" || return 1
    tail -n 20 "$JVMREUSE_ENGINE_MASTER/logs/pools.log" >"$marker" 2>/dev/null || touch "$marker"
}

# One round of watching during the start: the master's daemons live, and the place's own parts
# (the node side) do. The pools' launch is not a daemon: its end only makes its pools go stock.
_jvmreuse_engine_watch() {
    local f name
    for name in namenode resourcemanager historyserver; do
        f=$JVMREUSE_ENGINE_MASTER/pids/$name.pid
        [[ -f $f ]] || continue
        if ! _jvmreuse_alive "$(cat "$f")"; then
            jvmreuse_engine_failed "$name" "exited during start-up"
            return 1
        fi
    done
    if _jvmreuse_engine_launch_exited; then
        _jvmreuse_engine_log "WARNING: the pools' launch exited during start-up; the end of $JVMREUSE_ENGINE_MASTER/logs/pools.log:"
        sed 's/^/    /' "$JVMREUSE_ENGINE_MASTER/pools.exited" >&2 || true
    fi
    _jvmreuse_engine_place watch
}

# Waits until "$@" succeeds, watching every 0.2 s, at most until the deadline. $1: what is awaited
# (for the error), $2: the master daemon whose log the error shows.
_jvmreuse_engine_wait_for() {
    local what=$1 daemon=$2
    shift 2
    until "$@"; do
        _jvmreuse_engine_watch || return 1
        if (($(date +%s) >= JVMREUSE_ENGINE_DEADLINE)); then
            jvmreuse_engine_failed "$daemon" "did not become ready ($what) in time"
            return 1
        fi
        sleep 0.2
    done
}

_jvmreuse_engine_port_open() {
    (exec 3<>"/dev/tcp/$JVMREUSE_ENGINE_ADDR/$1") 2>/dev/null
}

# Formats HDFS (in the background, watched: a signal or the time limit must not wait for it, and
# its pid file lets the teardown stop it), starts the NameNode and waits until it listens: the
# JobHistoryServer creates its dirs there.
_jvmreuse_engine_start_hdfs() {
    local m=$JVMREUSE_ENGINE_MASTER pid status=0
    jvmreuse_hdfs_webapps "$m"
    jvmreuse_hdfs_format "$m" "$m/conf"
    pid=$(cat "$m/pids/namenode-format.pid")
    while _jvmreuse_alive "$pid"; do
        _jvmreuse_engine_place watch || return 1
        sleep 0.2
    done
    wait "$pid" || status=$?
    rm -f "$m/pids/namenode-format.pid"
    if ((status != 0)); then
        jvmreuse_engine_failed namenode-format "failed (HDFS could not be formatted)"
        return 1
    fi
    jvmreuse_start_namenode "$m" "$m/conf"
    _jvmreuse_engine_wait_for "its RPC port ${JVMREUSE_ENGINE_PORTS[nn]}" namenode \
        _jvmreuse_engine_port_open "${JVMREUSE_ENGINE_PORTS[nn]}" || return 1
    _jvmreuse_engine_log "NameNode (pid $(cat "$m/pids/namenode.pid")) listens on $JVMREUSE_ENGINE_ADDR:${JVMREUSE_ENGINE_PORTS[nn]}"
}

# Starts the ONE launch of every pool in the background (the place builds it).
_jvmreuse_engine_start_pools() {
    local m=$JVMREUSE_ENGINE_MASTER
    rm -f "$m/pools.exited"
    _jvmreuse_engine_place pool_launch || return 1
    mkdir -p "$(dirname "$JVMREUSE_ENGINE_POOLS_PID")" "$m/logs"
    printf '%q ' "${JVMREUSE_ENGINE_POOL_CMD[@]}" >"$m/pools.cmd"
    "${JVMREUSE_ENGINE_POOL_CMD[@]}" </dev/null >"$m/logs/pools.log" 2>&1 &
    printf '%s\n' "$!" >"$JVMREUSE_ENGINE_POOLS_PID"
}

jvmreuse_engine_pool_state() {
    local socket=$1 status
    if ! status=$(jvmreuse_pool_status_json "$socket"); then
        printf 'not answering on %s' "$socket"
        return 2
    fi
    if [[ $(jvmreuse_status_field "$status" state) != serving ]]; then
        printf 'NOT serving: %s (%s)' "$(jvmreuse_status_field "$status" state)" "$socket"
        return 1
    fi
    if [[ $(jvmreuse_status_field "$status" starting) != 0 ]]; then
        printf 'serving, slots %s (warming up: while no started slot is free, containers go the stock way) (%s)' \
            "$(jvmreuse_status_slots "$status")" "$socket"
        [[ $JVMREUSE_WAIT_WARMUP == 0 ]] && return 0
        return 2
    fi
    if [[ $(jvmreuse_status_field "$status" free) == 0 && $(jvmreuse_status_field "$status" busy) == 0 ]]; then
        printf 'NOT serving: no slot could start (%s)' "$socket"
        return 1
    fi
    printf 'serving, slots %s, runs: completed %s, running %s, fallbacks %s (%s)' "$(jvmreuse_status_slots "$status")" \
        "$(jvmreuse_status_field "$status" runs_completed)" "$(jvmreuse_status_field "$status" running)" \
        "$(jvmreuse_status_field "$status" fallbacks)" "$socket"
}

# Waits until every node's pool is decided (serving or not), then warns loudly about each that
# does not serve: its NodeManager runs containers the stock way. Never fails the start.
_jvmreuse_engine_wait_pools() {
    local i state status undecided down=() states=() serving=()
    while :; do
        undecided=0 down=() states=()
        for ((i = 1; i <= JVMREUSE_ENGINE_NODES; i++)); do
            status=0
            state=$(_jvmreuse_engine_place pool_state "$i") || status=$?
            if ((status == 2)); then
                undecided=$((undecided + 1))
            elif ((status == 1)); then
                down+=("$i") states+=("$state")
            else
                serving[i]=$state
            fi
        done
        ((undecided > 0)) || break
        _jvmreuse_engine_watch || return 1
        if [[ -f $JVMREUSE_ENGINE_MASTER/pools.exited ]] || (($(date +%s) >= JVMREUSE_ENGINE_DEADLINE)); then
            for ((i = 1; i <= JVMREUSE_ENGINE_NODES; i++)); do
                status=0
                state=$(_jvmreuse_engine_place pool_state "$i") || status=$?
                if ((status == 2)); then
                    down+=("$i") states+=("$state; $([[ -f $JVMREUSE_ENGINE_MASTER/pools.exited ]] && echo 'the launch exited' || echo 'no decision in time')")
                fi
            done
            break
        fi
        sleep 0.2
    done
    for i in "${!serving[@]}"; do
        _jvmreuse_engine_log "pool of node $i: ${serving[i]}"
    done
    ((${#down[@]} > 0)) || return 0
    _jvmreuse_engine_log "WARNING: ================================================================"
    for i in "${!down[@]}"; do
        _jvmreuse_engine_log "WARNING: the pool of node ${down[i]} did NOT start: its containers run the STOCK way (fresh JVMs)"
        _jvmreuse_engine_log "WARNING:   ${states[i]}"
    done
    _jvmreuse_engine_log "WARNING: see $JVMREUSE_ENGINE_MASTER/logs/pools.log and the pools' logs"
    _jvmreuse_engine_log "WARNING: ================================================================"
}

jvmreuse_engine_start() {
    local m=$JVMREUSE_ENGINE_MASTER addr=$JVMREUSE_ENGINE_ADDR
    mkdir -p "$m/pids" "$m/logs"
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_engine_start_hdfs || return 1
    fi
    if [[ $JVMREUSE_POOL == 1 ]]; then
        _jvmreuse_engine_start_pools || return 1
    fi
    jvmreuse_start_resourcemanager "$m" "$m/conf"
    jvmreuse_start_historyserver "$m" "$m/conf"
    _jvmreuse_engine_place start_nodes || return 1
    _jvmreuse_engine_wait_for "$JVMREUSE_ENGINE_NODES active NodeManagers" resourcemanager \
        jvmreuse_rm_has_nodes "$addr:${JVMREUSE_ENGINE_PORTS[rm_web]}" "$JVMREUSE_ENGINE_NODES" || return 1
    _jvmreuse_engine_wait_for "port ${JVMREUSE_ENGINE_PORTS[jhs]}" historyserver \
        _jvmreuse_engine_port_open "${JVMREUSE_ENGINE_PORTS[jhs]}" || return 1
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_engine_wait_for "a live DataNode" namenode \
            jvmreuse_nn_has_datanode "$addr:${JVMREUSE_ENGINE_PORTS[nn_http]}" || return 1
    fi
    if [[ $JVMREUSE_POOL == 1 ]]; then
        _jvmreuse_engine_wait_pools || return 1
    fi
    _jvmreuse_engine_watch
}

jvmreuse_engine_pids() {
    local pid
    while IFS= read -r pid; do
        if _jvmreuse_engine_place owns "$pid"; then
            printf '%s\n' "$pid"
        fi
    done < <(jvmreuse_live_pids "$@")
}

_jvmreuse_engine_master_pids() {
    local name
    for name in "$@"; do
        jvmreuse_engine_pids "$JVMREUSE_ENGINE_MASTER/pids/$name.pid"
    done
}

# The pools: each reachable pool asked to stop now, the launch given 10 s to end, then its PID.
_jvmreuse_engine_stop_pools() {
    local s pids=() waited=0
    [[ -f $JVMREUSE_ENGINE_POOLS_PID ]] || return 0
    mapfile -t pids < <(jvmreuse_engine_pids "$JVMREUSE_ENGINE_POOLS_PID")
    if ((${#pids[@]} > 0)) && [[ -n ${JVMREUSE_CLIENT:-} && -x ${JVMREUSE_CLIENT:-} ]]; then
        while IFS= read -r s; do
            [[ ! -S $s ]] || "$JVMREUSE_CLIENT" --socket "$s" stop --now >/dev/null 2>&1 || true
        done < <(_jvmreuse_engine_place sockets)
        while ((waited < 100)) && _jvmreuse_alive "${pids[0]}"; do
            sleep 0.1
            waited=$((waited + 1))
        done
    fi
    mapfile -t pids < <(jvmreuse_engine_pids "$JVMREUSE_ENGINE_POOLS_PID")
    jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" "$JVMREUSE_ENGINE_LOG" ${pids[@]+"${pids[@]}"}
}

jvmreuse_engine_stop() {
    local mode=${1:?jvmreuse_engine_stop graceful|fast} pids=() grace=3
    JVMREUSE_ENGINE_MARKS=()
    _jvmreuse_engine_place marks
    if [[ $mode == fast ]]; then
        grace=1
        mapfile -t pids < <(
            _jvmreuse_engine_place node_pids
            jvmreuse_engine_pids "$JVMREUSE_ENGINE_MASTER"/pids/*.pid "$JVMREUSE_ENGINE_POOLS_PID"
            ((${#JVMREUSE_ENGINE_MARKS[@]} == 0)) || jvmreuse_leftovers "${JVMREUSE_ENGINE_MARKS[@]}"
        )
        jvmreuse_terminate 2 "$JVMREUSE_ENGINE_LOG" ${pids[@]+"${pids[@]}"}
    else
        _jvmreuse_engine_place stop_nodes
        mapfile -t pids < <(_jvmreuse_engine_master_pids historyserver resourcemanager)
        jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" "$JVMREUSE_ENGINE_LOG" ${pids[@]+"${pids[@]}"}
        _jvmreuse_engine_stop_pools
        mapfile -t pids < <(_jvmreuse_engine_master_pids datanode)
        jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" "$JVMREUSE_ENGINE_LOG" ${pids[@]+"${pids[@]}"}
        mapfile -t pids < <(jvmreuse_engine_pids "$JVMREUSE_ENGINE_MASTER"/pids/*.pid)
        jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" "$JVMREUSE_ENGINE_LOG" ${pids[@]+"${pids[@]}"}
    fi
    if ((${#JVMREUSE_ENGINE_MARKS[@]} > 0)); then
        jvmreuse_sweep "$grace" "$JVMREUSE_ENGINE_LOG" "the cluster" "${JVMREUSE_ENGINE_MARKS[@]}"
    fi
}
