# shellcheck shell=bash source-path=SCRIPTDIR
#
# hpc-node.sh -- the per-node agent of a jvmreuse batch job (see hpc-job.sh). Run on each node as
#   bash hpc-node.sh WORK_DIR [NODE_INDEX]
# by `srun --overlap -N1 -n1 -w NODE` (Slurm) or as one rank per node of one MPI launch (PJM: no
# ssh or srun between nodes; the node index is then the MPI rank + 1). It
#   - starts this node's NodeManager (and DataNode with HDFS) with the configuration the master
#     wrote to <work>/nodes/<node>/conf; PIDs in <work>/nodes/<node>/pids (with the host name);
#   - in pool mode, waits (up to JVMREUSE_START_TIMEOUT) until this node's pool serves (with
#     JVMREUSE_WAIT_WARMUP=1: has warmed up all its slots, before the NodeManager starts; else:
#     answers, while the NodeManager already serves and slots still warm up) or cannot, and
#     writes the outcome to <work>/nodes/<node>/pool.state, which the master's engine reads;
#   - stays until <work>/stop appears, SIGTERM/SIGINT arrives, or a daemon dies; then stops its
#     daemons by PID (SIGTERM, SIGKILL after JVMREUSE_STOP_TIMEOUT) and ends what they left on
#     this node (task containers: processes working in this node's local dirs).
# Node names come from <work>/nodes.txt (the allocation's node list), never from `hostname`.
set -euo pipefail

work=${1:?usage: hpc-node.sh WORK_DIR [NODE_INDEX]}
index=${2:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=job-scripts/lib/core/core.sh
source "$here/../core/core.sh"
# shellcheck source=/dev/null
source "$work/job.env"

if [[ -z $index ]]; then
    rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-${SLURM_PROCID:-}}}}
    [[ $rank =~ ^[0-9]+$ ]] || { jvmreuse_log jvmreuse-node "ERROR: no node index given and no MPI rank in the environment"; exit 2; }
    index=$((rank + 1))
fi
node=$(sed -n "${index}p" "$work/nodes.txt")
[[ -n $node ]] || { jvmreuse_log jvmreuse-node "ERROR: node index $index is not in $work/nodes.txt"; exit 2; }
nd=$work/nodes/$node
log() { JVMREUSE_LOG_TIME=1 jvmreuse_log "jvmreuse-node $node" "$@"; }
exec >>"$nd/logs/agent.log" 2>&1 </dev/null

host=$(uname -n)
# NODE_LOCAL_DIR: this node's NodeManager local dir, from the master (hpc-job.sh).
# shellcheck source=/dev/null
source "$nd/node.env"
local_dir=$NODE_LOCAL_DIR
stopping=

# Stops this node's daemons by PID, then what they left: processes working in the local dir
# (containers), SIGKILLed at once (processes.sh's jvmreuse_sweep; not this agent, its ancestors
# or its session).
stop_node() {
    local pids=()
    [[ -z $stopping ]] || return 0
    stopping=1
    trap '' INT TERM
    mapfile -t pids < <(jvmreuse_live_pids "$nd"/pids/*.pid)
    if ((${#pids[@]} > 0)); then
        log "stopping pid ${pids[*]}"
        jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" log "${pids[@]}"
    fi
    if [[ -n $local_dir ]]; then
        jvmreuse_sweep 0 log "$local_dir" "cwd:$local_dir"
    fi
    if [[ -n $JVMREUSE_LOCAL_DIR && -n $local_dir ]]; then
        rm -rf "$local_dir" 2>/dev/null || true
    fi
    # On a host other than the master's, this node's pool socket (and its dir) is on this host's
    # own /tmp, which the master cannot reach: stop the pool here and remove the dir (unless the
    # dir is shared: the master's pool1.sock is in it, and the master removes it).
    if [[ ${HPC_SHARED_HOST:-1} == 0 && $index != 1 && $JVMREUSE_POOL == 1 ]]; then
        if [[ -S $HPC_SOCKET_DIR/pool$index.sock && -n ${JVMREUSE_CLIENT:-} ]]; then
            log "stopping the pool at $HPC_SOCKET_DIR/pool$index.sock"
            "$JVMREUSE_CLIENT" --socket "$HPC_SOCKET_DIR/pool$index.sock" stop --now >/dev/null 2>&1 || true
        fi
        if [[ ! -e $HPC_SOCKET_DIR/pool1.sock ]]; then
            rm -rf "$HPC_SOCKET_DIR" 2>/dev/null || true
        fi
    fi
    log "stopped"
}
trap 'stop_node' EXIT
trap 'log "SIGTERM"; exit 143' TERM
trap 'log "SIGINT"; exit 130' INT

log "agent on host $host (node $index of $HPC_N), pid $$; NodeManager on ${NODE_BIND_ADDR:-0.0.0.0}"
mkdir -p "$local_dir" "$nd/pids" "$nd/tmp"

# Waits until this node's pool is decided (core/engine.sh's jvmreuse_engine_pool_state: serving,
# or with JVMREUSE_WAIT_WARMUP=0 answering while its slots warm up; or not serving) and writes
# the outcome to pool.state for the master; the executor falls back to stock launches while the
# pool cannot take a container.
wait_for_pool() {
    local socket=$HPC_SOCKET_DIR/pool$index.sock deadline state='' status
    deadline=$(($(date +%s) + JVMREUSE_START_TIMEOUT))
    while [[ ! -e $work/stop ]]; do
        status=0
        state=$(jvmreuse_engine_pool_state "$socket") || status=$?
        ((status == 2)) || break
        if [[ -e $work/master/pools.exited ]]; then
            state="NOT serving: the pools' launch exited (see $work/master/logs/pools.log)"
            break
        fi
        if (($(date +%s) >= deadline)); then
            state="NOT serving: $state after ${JVMREUSE_START_TIMEOUT}s"
            break
        fi
        state=''
        sleep 0.5
    done
    printf '%s\n' "${state:-NOT serving: stopped before the pool answered}" >"$nd/pool.state"
    log "pool: ${state:-none}"
}

start_daemons() {
    jvmreuse_start_nodemanager "$nd" nodemanager "$nd/conf" "$work/master/conf"
    printf '%s\n' "$host" >"$nd/pids/nodemanager.host"
    log "NodeManager pid $(cat "$nd/pids/nodemanager.pid")"
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        jvmreuse_start_datanode "$nd" "$nd/conf" "$work/master"
        printf '%s\n' "$host" >"$nd/pids/datanode.host"
        log "DataNode pid $(cat "$nd/pids/datanode.pid")"
    fi
}

if [[ $JVMREUSE_POOL == 1 ]]; then
    jvmreuse_load_build "$HPC_REPO"
fi
if [[ $JVMREUSE_POOL == 1 && $JVMREUSE_WAIT_WARMUP == 1 ]]; then
    wait_for_pool
fi
[[ ! -e $work/stop ]] || exit 0
start_daemons
if [[ $JVMREUSE_POOL == 1 && $JVMREUSE_WAIT_WARMUP == 0 ]]; then
    wait_for_pool
fi

while [[ ! -e $work/stop ]]; do
    for f in "$nd"/pids/*.pid; do
        if ! _jvmreuse_alive "$(cat "$f")"; then
            log "ERROR: $(basename "$f" .pid) exited; the end of $nd/logs/$(basename "$f" .pid).log:"
            tail -n 20 "$nd/logs/$(basename "$f" .pid).log" >&2 || true
            exit 1
        fi
    done
    sleep 1
done
log "stop requested"
