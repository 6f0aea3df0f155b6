# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-nodes.sh -- the allocation: node names, shared hosts, the mpiexec command, each node's
# memory and the memory check.
# Part of the HPC job library; sourced by hpc-job.sh, which documents the whole.

# ---------------------------------------------------------------------------------------------
# The allocation's nodes

# Checks the names in HPC_NODES.
_hpc_check_node_names() {
    local n
    ((${#HPC_NODES[@]} > 0)) || _hpc_die "the allocation has no nodes ($1)"
    for n in "${HPC_NODES[@]}"; do
        [[ $n =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || _hpc_die "cannot parse the node list $1: '$n' is not a node name"
    done
}

# Fills HPC_NODES (node names in allocation order; the first is the master).
_hpc_read_nodes() {
    local out list=() line
    HPC_NODES=()
    HPC_HOSTS=()
    case $HPC_SCHED in
        slurm)
            [[ -n ${SLURM_JOB_NODELIST:-} ]] || _hpc_die "SLURM_JOB_NODELIST is not set: run this script with sbatch (or inside salloc)"
            if ! out=$(scontrol show hostnames "$SLURM_JOB_NODELIST" 2>&1) || [[ -z $out ]]; then
                _hpc_die "cannot parse the node list SLURM_JOB_NODELIST='$SLURM_JOB_NODELIST' with scontrol show hostnames: ${out:-no output}"
            fi
            mapfile -t HPC_NODES <<<"$out"
            _hpc_check_node_names "SLURM_JOB_NODELIST='$SLURM_JOB_NODELIST'"
            # The host behind each node name (NodeHostname), to find nodes that share a host.
            for line in "${HPC_NODES[@]}"; do
                HPC_HOSTS+=("$(scontrol show node "$line" -o 2>/dev/null | sed -n 's/.* NodeHostName=\([^ ]*\).*/\1/p')")
            done
            if [[ -n ${SLURM_NNODES:-} && $SLURM_NNODES != "${#HPC_NODES[@]}" ]]; then
                _hpc_die "cannot parse the node list SLURM_JOB_NODELIST='$SLURM_JOB_NODELIST': scontrol gave ${#HPC_NODES[@]} names, SLURM_NNODES=$SLURM_NNODES"
            fi
            ;;
        pjm)
            if [[ -n ${PJM_O_NODEINF:-} ]]; then
                # A file with one node per line (first field), or the list itself.
                if [[ -f $PJM_O_NODEINF ]]; then
                    mapfile -t list < <(awk 'NF && $1 !~ /^#/ { print $1 }' "$PJM_O_NODEINF")
                else
                    read -r -a list <<<"${PJM_O_NODEINF//,/ }"
                fi
                HPC_NODES=(${list[@]+"${list[@]}"})
                _hpc_check_node_names "PJM_O_NODEINF=$PJM_O_NODEINF"
            else
                # No node-list variable: one rank per node prints its rank and node name.
                local n=${PJM_NODE:-${JVMREUSE_NODES:-}}
                [[ $n =~ ^[1-9][0-9]*$ ]] || _hpc_die "cannot tell the number of nodes: PJM_NODE is '${PJM_NODE:-}' (set PJM_NODE or JVMREUSE_NODES)"
                _hpc_mpiexec_cmd 1 "$n"
                # shellcheck disable=SC2016 # expanded by the ranks
                if ! out=$(timeout 120 "${HPC_MPIEXEC_CMD[@]}" sh -c \
                    'echo "jvmreuse-node ${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-0}}} ${SLURMD_NODENAME:-$(hostname -s)} $(hostname)"' 2>&1); then
                    _hpc_die "cannot gather the node names with '${HPC_MPIEXEC_CMD[*]} hostname': $out"
                fi
                while IFS= read -r line; do
                    [[ $line == 'jvmreuse-node '* ]] && list+=("${line#jvmreuse-node }")
                done <<<"$out"
                mapfile -t HPC_NODES < <(printf '%s\n' ${list[@]+"${list[@]}"} | sort -n -k1,1 | awk '!seen[$2]++ { print $2 }')
                mapfile -t HPC_HOSTS < <(printf '%s\n' ${list[@]+"${list[@]}"} | sort -n -k1,1 | awk '!seen[$2]++ { print $3 }')
                _hpc_check_node_names "gathered with $JVMREUSE_MPIEXEC: $(tr '\n' ' ' <<<"$out")"
                if ((${#HPC_NODES[@]} != n)); then
                    _hpc_die "gathered ${#HPC_NODES[@]} node names (${HPC_NODES[*]}) with $JVMREUSE_MPIEXEC, expected $n (PJM_NODE)"
                fi
            fi
            ;;
    esac
    HPC_MASTER=${HPC_NODES[0]}
    HPC_N=${#HPC_NODES[@]}
    _hpc_shared_host "${HPC_HOSTS[@]}"
}

# Sets HPC_SHARED_HOST=1 when nodes of the allocation are the same host (emulated nodes, as in the
# Slurm testbed): JVMREUSE_SHARED_HOST=1/0, or auto (default) from the nodes' host names ($@).
# Open MPI's shared-memory transport crashes between ranks of different "nodes" on one host, so
# then all pools run as ranks of ONE mpirun on the master's host (--ranks-per-pool, pool i serves
# node i), as jvmreuse-cluster runs N NodeManagers' pools on one machine.
_hpc_shared_host() {
    local distinct
    case ${JVMREUSE_SHARED_HOST:-auto} in
        0 | 1) HPC_SHARED_HOST=$JVMREUSE_SHARED_HOST ;;
        auto)
            HPC_SHARED_HOST=0
            if (($# > 0)); then
                distinct=$(printf '%s\n' "$@" | sort -u | wc -l)
                ((distinct == $#)) || HPC_SHARED_HOST=1
            fi
            ;;
        *) _hpc_die "JVMREUSE_SHARED_HOST must be auto, 0 or 1 (got '$JVMREUSE_SHARED_HOST')" ;;
    esac
}

# The address node $1 (index $2) listens on: HPC_BIND_ADDR (JVMREUSE_BIND_ADDR). On hosts of their
# own the node's address (its host name from the scheduler, else its node name, resolved here:
# names resolve alike on every node), so that its daemons are reached on that address only;
# emulated nodes on one host (or a name that resolves to loopback): 0.0.0.0.
_hpc_bind_addr() {
    local name=$1 i=$2 host addr
    host=${HPC_HOSTS[i - 1]:-}
    host=${host:-$name}
    case $JVMREUSE_BIND_ADDR in
        any) HPC_BIND_ADDR=0.0.0.0; return ;;
        auto) ((HPC_SHARED_HOST == 0)) || { HPC_BIND_ADDR=0.0.0.0; return; } ;;
        host) ;;
        *) _hpc_die "JVMREUSE_BIND_ADDR must be auto, host or any (got '$JVMREUSE_BIND_ADDR')" ;;
    esac
    addr=$(getent ahostsv4 "$host" 2>/dev/null | awk 'NR == 1 { print $1 }') || addr=''
    if [[ -z $addr || $addr == 127.* ]]; then
        [[ $JVMREUSE_BIND_ADDR == auto ]] || _hpc_die "JVMREUSE_BIND_ADDR=host: the host name '$host' of node $name resolves to '${addr:-nothing}' (not an address of its own)"
        addr=0.0.0.0
    fi
    HPC_BIND_ADDR=$addr
}

# The MPI launcher of the mpiexec style for $1 ranks per node on $2 nodes: HPC_MPIEXEC_CMD.
_hpc_mpiexec_cmd() {
    local opts
    opts=${JVMREUSE_MPIEXEC_OPTS//@PER_NODE@/$1}
    read -r -a HPC_MPIEXEC_CMD <<<"$JVMREUSE_MPIEXEC $opts"
    HPC_MPIEXEC_CMD+=(-n "$(($1 * $2))")
}

# The memory a node offers in MB: JVMREUSE_NODE_MEMORY, SLURM_MEM_PER_NODE, SLURM_MEM_PER_CPU x
# the node's CPUs (--mem-per-cpu, or DefMemPerCPU), scontrol, MemTotal.
_hpc_node_memory() {
    local m='' cpus
    HPC_NODE_MEMORY_FROM=JVMREUSE_NODE_MEMORY
    if [[ -n $JVMREUSE_NODE_MEMORY ]]; then
        m=$JVMREUSE_NODE_MEMORY
    elif [[ $HPC_SCHED == slurm && ${SLURM_MEM_PER_NODE:-} =~ ^[1-9][0-9]*$ ]]; then
        m=$SLURM_MEM_PER_NODE HPC_NODE_MEMORY_FROM=SLURM_MEM_PER_NODE
    elif [[ $HPC_SCHED == slurm && ${SLURM_MEM_PER_CPU:-} =~ ^[1-9][0-9]*$ ]]; then
        cpus=${SLURM_CPUS_ON_NODE:-$(nproc)}
        m=$((SLURM_MEM_PER_CPU * cpus)) HPC_NODE_MEMORY_FROM="SLURM_MEM_PER_CPU $SLURM_MEM_PER_CPU MB x $cpus CPUs"
    elif [[ $HPC_SCHED == slurm ]] && m=$(scontrol show node "$HPC_MASTER" -o 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p') && [[ -n $m ]]; then
        HPC_NODE_MEMORY_FROM="RealMemory of $HPC_MASTER (scontrol)"
    else
        m=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
        HPC_NODE_MEMORY_FROM="MemTotal of $(hostname)"
    fi
    HPC_NODE_MEMORY=$m
}

# Slots per node, vcores, and the memory check (the master runs the most: RM, JHS, its NM, pool).
_hpc_check_memory() {
    local slot_heap daemon need parts
    HPC_SLOTS=${JVMREUSE_SLOTS:-$((JVMREUSE_NM_MEMORY / JVMREUSE_TASK_MEMORY))}
    HPC_VCORES=${JVMREUSE_VCORES:-${SLURM_CPUS_ON_NODE:-$(nproc)}}
    ((HPC_VCORES >= 1)) || HPC_VCORES=1
    slot_heap=$(jvmreuse_mb "$JVMREUSE_SLOT_HEAP")
    daemon=$(jvmreuse_mb "$JVMREUSE_DAEMON_HEAP")
    _hpc_node_memory
    if [[ $JVMREUSE_POOL == 1 ]]; then
        need=$(((HPC_SLOTS + 1) * slot_heap + JVMREUSE_AM_MEMORY))
        parts="$HPC_SLOTS slots x $slot_heap MB + pool manager $slot_heap MB + AppMaster $JVMREUSE_AM_MEMORY MB"
    else
        need=$JVMREUSE_NM_MEMORY
        parts="containers $JVMREUSE_NM_MEMORY MB (JVMREUSE_NM_MEMORY)"
    fi
    need=$((need + 3 * daemon))
    parts+=" + NodeManager, ResourceManager, JobHistoryServer 3 x $daemon MB"
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        need=$((need + 2 * daemon))
        parts+=" + NameNode, DataNode 2 x $daemon MB"
    fi
    if ((need > HPC_NODE_MEMORY)); then
        _hpc_die "too little memory on the master node $HPC_MASTER: $parts = $need MB > $HPC_NODE_MEMORY MB" \
            "(node memory from $HPC_NODE_MEMORY_FROM). Lower JVMREUSE_SLOTS ($HPC_SLOTS), JVMREUSE_SLOT_HEAP ($JVMREUSE_SLOT_HEAP)" \
            "or JVMREUSE_DAEMON_HEAP ($JVMREUSE_DAEMON_HEAP), or ask for nodes with more memory"
    fi
    HPC_MEMORY_LINE="$parts = $need MB <= $HPC_NODE_MEMORY MB ($HPC_NODE_MEMORY_FROM)"
}
