# shellcheck shell=bash source-path=SCRIPTDIR
#
# hpc-job.sh -- the shared library of the JVM Reuse Hadoop batch jobs on Slurm and PJM
# (job-scripts/sbatch/*.sbatch, job-scripts/pjsub/*.pjsub). A job script sources it and calls
#
#   hpc_job_main slurm|pjm      read the settings, check them and the allocation, then start
#                               RM + JobHistory (+ HDFS) on the master, the pools (ONE MPI launch
#                               over the allocation), one NodeManager per node, run the workload,
#                               collect logs, timings and pictures, and stop everything by PID
#                               (also on scancel/pjdel, errors and before the time limit)
#
# The per-node agent (NodeManager, optionally DataNode) is job-scripts/lib/hpc-node.sh, started on
# every node with `srun --overlap -N1 -n1 -w NODE` (Slurm) or as the ranks of one MPI launch with
# one rank per node (PJM, where there is no ssh or srun between nodes). Settings: see
# job-scripts/conf/jvmreuse-job.conf and docs/job-scripts.md. The caller uses `set -euo pipefail`.
#
# Nodes are named after the allocation's node list (SLURMD_NODENAME-like names), never after
# `hostname`: several "nodes" may share one host (the Slurm testbed), so per-node dirs, ports and
# pool sockets are all per node name / node index.

# shellcheck source=hadoop-cluster.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-cluster.sh"
# shellcheck source=job-modes.sh
source "$(dirname "${BASH_SOURCE[0]}")/job-modes.sh"

HPC_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

_hpc_log() { JVMREUSE_LOG_TIME=1 jvmreuse_log jvmreuse-job "$@"; }
_hpc_die() {
    _hpc_log "ERROR: $*"
    exit 1
}

# Every setting of the job, with its default (defaults.sh; conf/jvmreuse-job.conf documents them).
HPC_SETTINGS=("${JVMREUSE_DEFAULTS[@]}" "${JVMREUSE_JOB_DEFAULTS[@]}")

# ---------------------------------------------------------------------------------------------
# Settings

# Finds the repository (the job script is usually run from a copy in the scheduler's spool):
# JVMREUSE_HOME, else the submit/work dir or the script's dir if they hold job-scripts/lib.
_hpc_find_repo() {
    local c
    for c in "${JVMREUSE_HOME:-}" "$HPC_LIB/../.." "${SLURM_SUBMIT_DIR:-}" "${PJM_O_WORKDIR:-}" "$PWD"; do
        if [[ -n $c && -f $c/job-scripts/lib/hpc-job.sh && -f $c/job-scripts/conf/jvmreuse-job.conf ]]; then
            (cd "$c" && pwd -P)
            return 0
        fi
    done
    return 1
}

# Applies defaults, then the config file, then the environment (which wins).
_hpc_load_settings() {
    local kv name saved=() conf
    for kv in "${HPC_SETTINGS[@]}"; do
        name=${kv%%=*}
        if [[ -n ${!name+x} ]]; then
            saved+=("$name=${!name}")
        fi
    done
    for kv in "${HPC_SETTINGS[@]}"; do
        printf -v "${kv%%=*}" '%s' "${kv#*=}"
    done
    conf=${JVMREUSE_JOB_CONF:-$HPC_REPO/job-scripts/conf/jvmreuse-job.conf}
    if [[ ! -r $conf ]]; then
        _hpc_die "the config file JVMREUSE_JOB_CONF=$conf does not exist or is not readable"
    fi
    # shellcheck source=/dev/null
    if ! source "$conf"; then
        _hpc_die "the config file $conf has an error (it is a bash fragment of NAME=value lines)"
    fi
    HPC_CONF_FILE=$(cd "$(dirname "$conf")" && pwd -P)/$(basename "$conf")
    for kv in ${saved[@]+"${saved[@]}"}; do
        printf -v "${kv%%=*}" '%s' "${kv#*=}"
    done
    for kv in "${HPC_SETTINGS[@]}"; do
        # shellcheck disable=SC2163 # exports the variable named by the expansion
        export "${kv%%=*}"
    done
}

# Megabytes of a Java heap size (512m, 1g, 1024k, or MB without a unit); empty if not one.
_hpc_mb() {
    local v=$1
    case $v in
        *[gG]) [[ ${v%?} =~ ^[0-9]+$ ]] && printf '%s' $((${v%?} * 1024)) ;;
        *[mM]) [[ ${v%?} =~ ^[0-9]+$ ]] && printf '%s' "${v%?}" ;;
        *[kK]) [[ ${v%?} =~ ^[0-9]+$ ]] && printf '%s' $((${v%?} / 1024)) ;;
        *) [[ $v =~ ^[0-9]+$ ]] && printf '%s' "$v" ;;
    esac
}

# Seconds of a time limit: S, M:SS, H:MM:SS, D-H:MM:SS; empty for UNLIMITED or junk.
_hpc_seconds() {
    local v=$1 d=0 h=0 m=0 s=0
    if [[ $v =~ ^([0-9]+)-([0-9]+):([0-9]+):([0-9]+)$ ]]; then
        d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[3]} s=${BASH_REMATCH[4]}
    elif [[ $v =~ ^([0-9]+)-([0-9]+)$ ]]; then
        d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]}
    elif [[ $v =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
        h=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
    elif [[ $v =~ ^([0-9]+):([0-9]+)$ ]]; then
        m=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
    elif [[ $v =~ ^[0-9]+$ ]]; then
        s=$v
    else
        return 0
    fi
    printf '%s' $((10#$d * 86400 + 10#$h * 3600 + 10#$m * 60 + 10#$s))
}

_hpc_job_id() {
    case $HPC_SCHED in
        slurm) printf '%s' "${SLURM_JOB_ID:-}" ;;
        pjm) printf '%s' "${PJM_JOBID:-}" ;;
    esac
}

# Checks every setting that does not need the allocation; dies with a clear message.
_hpc_validate_settings() {
    local name
    jvmreuse_conf_check || _hpc_die "fix the configuration overrides above (JVMREUSE_CONF_OVERRIDES, JVMREUSE_*_EXTRA)"
    case $JVMREUSE_WORKLOAD in
        pagerank | kmeans | terasort-compare) ;;
        command)
            [[ -n $JVMREUSE_COMMAND ]] || _hpc_die "JVMREUSE_WORKLOAD=command needs JVMREUSE_COMMAND (a bash command line)"
            ;;
        *) _hpc_die "unknown workload JVMREUSE_WORKLOAD='$JVMREUSE_WORKLOAD' (known: pagerank, kmeans, terasort-compare, command)" ;;
    esac
    for name in JVMREUSE_ITERATIONS JVMREUSE_PAGERANK_NODES JVMREUSE_KMEANS_POINTS JVMREUSE_KMEANS_K \
        JVMREUSE_KMEANS_DIMENSIONS JVMREUSE_TERASORT_ROWS JVMREUSE_NM_MEMORY JVMREUSE_TASK_MEMORY JVMREUSE_AM_MEMORY \
        JVMREUSE_START_TIMEOUT JVMREUSE_STOP_TIMEOUT JVMREUSE_WALLTIME_MARGIN; do
        [[ ${!name} =~ ^[1-9][0-9]*$ ]] || _hpc_die "$name must be a whole number >= 1 (got '${!name}')"
    done
    for name in JVMREUSE_REDUCERS JVMREUSE_SLOTS JVMREUSE_VCORES JVMREUSE_NODE_MEMORY JVMREUSE_PORT_BASE; do
        [[ -z ${!name} || ${!name} =~ ^[1-9][0-9]*$ ]] || _hpc_die "$name must be empty or a whole number >= 1 (got '${!name}')"
    done
    for name in JVMREUSE_POOL JVMREUSE_MPI_SHUFFLE JVMREUSE_HDFS JVMREUSE_VERIFY; do
        [[ ${!name} == [01] ]] || _hpc_die "$name must be 0 or 1 (got '${!name}')"
    done
    for name in JVMREUSE_SLOT_HEAP JVMREUSE_DAEMON_HEAP; do
        [[ -n $(_hpc_mb "${!name}") ]] || _hpc_die "$name must be a heap size such as 512m or 1g (got '${!name}')"
    done
    # shellcheck disable=SC2153 # set by _hpc_load_settings
    if ((JVMREUSE_TASK_MEMORY > JVMREUSE_NM_MEMORY || JVMREUSE_AM_MEMORY > JVMREUSE_NM_MEMORY)); then
        _hpc_die "JVMREUSE_NM_MEMORY ($JVMREUSE_NM_MEMORY MB) must hold one task ($JVMREUSE_TASK_MEMORY MB) and the AppMaster ($JVMREUSE_AM_MEMORY MB)"
    fi
    if [[ $JVMREUSE_WORKLOAD == terasort-compare ]]; then
        local v
        [[ -n $JVMREUSE_TERASORT_VARIANTS ]] || _hpc_die "JVMREUSE_TERASORT_VARIANTS is empty (known: http mpi)"
        for v in $JVMREUSE_TERASORT_VARIANTS; do
            case $v in
                http) ;;
                mpi)
                    if [[ $JVMREUSE_POOL != 1 || $JVMREUSE_MPI_SHUFFLE != 1 ]]; then
                        _hpc_die "the terasort variant 'mpi' needs the pools' Shuffle Manager: JVMREUSE_POOL=1 and JVMREUSE_MPI_SHUFFLE=1 (or JVMREUSE_TERASORT_VARIANTS=http)"
                    fi
                    ;;
                *) _hpc_die "unknown terasort variant '$v' in JVMREUSE_TERASORT_VARIANTS (known: http mpi)" ;;
            esac
        done
    fi
    if [[ -n $JVMREUSE_INPUT ]]; then
        if [[ $JVMREUSE_WORKLOAD == command ]]; then
            _hpc_die "JVMREUSE_INPUT is not used by JVMREUSE_WORKLOAD=command (name the input in JVMREUSE_COMMAND)"
        fi
        local path=${JVMREUSE_INPUT#file://}
        if [[ $path == hdfs://* ]]; then
            [[ $JVMREUSE_HDFS == 1 ]] || _hpc_die "JVMREUSE_INPUT=$JVMREUSE_INPUT is on HDFS, but JVMREUSE_HDFS=0"
            _hpc_die "JVMREUSE_INPUT on HDFS is not supported: the job's HDFS is new and empty; give a path on the shared file system (with JVMREUSE_HDFS=1 it is copied in)"
        elif [[ $path != /* ]]; then
            _hpc_die "JVMREUSE_INPUT must be an absolute path (got '$JVMREUSE_INPUT')"
        elif [[ ! -e $path ]]; then
            _hpc_die "the input path JVMREUSE_INPUT=$JVMREUSE_INPUT does not exist"
        elif [[ ! -r $path ]]; then
            _hpc_die "the input path JVMREUSE_INPUT=$JVMREUSE_INPUT is not readable"
        fi
    fi
    case ${JVMREUSE_POOL_LAUNCHER:=$([[ $HPC_SCHED == slurm ]] && echo mpirun || echo mpiexec)} in
        mpirun | srun | mpiexec) ;;
        *) _hpc_die "JVMREUSE_POOL_LAUNCHER must be mpirun, srun or mpiexec (got '$JVMREUSE_POOL_LAUNCHER')" ;;
    esac
    case ${JVMREUSE_NM_LAUNCHER:=$([[ $HPC_SCHED == slurm ]] && echo srun || echo mpi)} in
        srun | mpi) ;;
        *) _hpc_die "JVMREUSE_NM_LAUNCHER must be srun or mpi (got '$JVMREUSE_NM_LAUNCHER')" ;;
    esac
    if [[ $JVMREUSE_POOL_LAUNCHER == srun || $JVMREUSE_NM_LAUNCHER == srun ]] && ! command -v srun >/dev/null 2>&1; then
        _hpc_die "srun is not on PATH, but JVMREUSE_POOL_LAUNCHER=$JVMREUSE_POOL_LAUNCHER / JVMREUSE_NM_LAUNCHER=$JVMREUSE_NM_LAUNCHER need it"
    fi
    if [[ $JVMREUSE_POOL_LAUNCHER == mpiexec || $JVMREUSE_NM_LAUNCHER == mpi || $HPC_SCHED == pjm ]]; then
        command -v "$JVMREUSE_MPIEXEC" >/dev/null 2>&1 ||
            _hpc_die "the MPI launcher JVMREUSE_MPIEXEC=$JVMREUSE_MPIEXEC is not on PATH (needed to start per-node ranks)"
    fi
    export JVMREUSE_POOL_LAUNCHER JVMREUSE_NM_LAUNCHER
}

# Checks the build: Hadoop's jars, the workloads and examples jars, the pool and the MPI shuffle.
_hpc_validate_build() {
    HPC_WORKLOADS_JAR=$(find "$HPC_REPO/workloads/target" -maxdepth 1 -name 'workloads-*.jar' ! -name '*-sources.jar' \
        ! -name '*-tests.jar' 2>/dev/null | head -n 1)
    HPC_EXAMPLES_JAR=$JVMREUSE_HADOOP_LIB/hadoop-mapreduce-examples-2.2.0.jar
    if [[ ! -f $JVMREUSE_HADOOP_LIB/hadoop-yarn-server-nodemanager-2.2.0.jar ]]; then
        _hpc_die "the Hadoop 2.2 jars are not in $JVMREUSE_HADOOP_LIB: run job-scripts/setup.sh on a login node first"
    fi
    case $JVMREUSE_WORKLOAD in
        pagerank | kmeans | terasort-compare) # terasort-compare times its jobs with the workloads' job-time
            [[ -n $HPC_WORKLOADS_JAR ]] || _hpc_die "the workloads jar (workloads/target/workloads-*.jar) is missing: run job-scripts/setup.sh"
            ;;&
        terasort-compare)
            [[ -f $HPC_EXAMPLES_JAR ]] || _hpc_die "$HPC_EXAMPLES_JAR is missing: run job-scripts/setup.sh"
            ;;
    esac
    if [[ $JVMREUSE_POOL == 1 ]]; then
        (jvmreuse_load_build "$HPC_REPO") || _hpc_die "JVMREUSE_POOL=1 needs the built pool (see above), or set JVMREUSE_POOL=0"
        jvmreuse_load_build "$HPC_REPO"
        [[ -n $JVMREUSE_PATCH_JAR ]] || _hpc_die "JVMREUSE_POOL=1 needs the hadoop-patch jar (hadoop-patch/target/hadoop-patch-*.jar): run job-scripts/setup.sh"
        if [[ $JVMREUSE_MPI_SHUFFLE == 1 && -z $JVMREUSE_MPI_SHUFFLE_JAR ]]; then
            _hpc_die "JVMREUSE_MPI_SHUFFLE=1 needs mpi-shuffle/target/mpi-shuffle-*.jar: run job-scripts/setup.sh (or JVMREUSE_MPI_SHUFFLE=0)"
        fi
        HPC_MPIRUN=${JVMREUSE_MPIRUN:-$MPIRUN}
        if [[ $JVMREUSE_POOL_LAUNCHER == mpirun ]] && ! command -v "$HPC_MPIRUN" >/dev/null 2>&1; then
            _hpc_die "mpirun ($HPC_MPIRUN) is not there: set JVMREUSE_MPIRUN or JVMREUSE_POOL_LAUNCHER"
        fi
    fi
    JVMREUSE_CLUSTER_JAVA=${JVMREUSE_JAVA_HOME:-${JAVA_HOME:-}}
    jvmreuse_cluster_java_home || _hpc_die "no usable JDK: set JVMREUSE_JAVA_HOME"
    export HPC_WORKLOADS_JAR HPC_EXAMPLES_JAR JVMREUSE_CLUSTER_JAVA_HOME
}

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
    slot_heap=$(_hpc_mb "$JVMREUSE_SLOT_HEAP")
    daemon=$(_hpc_mb "$JVMREUSE_DAEMON_HEAP")
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

# ---------------------------------------------------------------------------------------------
# Places and ports

_hpc_port_names_master=(rm rm_scheduler rm_tracker rm_admin rm_web jhs jhs_web nn nn_http)
_hpc_port_names_node=(nm nm_localizer nm_web nm_shuffle dn dn_http dn_ipc)

# Sets HPC_PORT_BASE: master ports at BASE+0.., node i's at BASE+10*i+0..; several nodes may
# share a host, so every node gets its own. Checked free on this host (where emulated nodes live).
_hpc_pick_ports() {
    local id base tries=0 i j busy
    id=$(_hpc_job_id)
    id=${id//[^0-9]/}
    id=${id:-$$}
    if ((${#id} > 6)); then
        id=${id: -6}
    fi
    base=${JVMREUSE_PORT_BASE:-$((20000 + ((10#$id * 97) % 800) * 12))}
    while :; do
        busy=''
        for ((i = 0; i <= HPC_N && i <= 100; i++)); do
            for ((j = 0; j < 9; j++)); do
                if jvmreuse_port_busy $((base + 10 * i + j)); then
                    busy=$((base + 10 * i + j))
                    break 2
                fi
            done
        done
        [[ -n $busy ]] || break
        if [[ -n $JVMREUSE_PORT_BASE ]] || ((++tries > 20)); then
            _hpc_die "port $busy (from JVMREUSE_PORT_BASE=$base) is in use on $(hostname): choose another JVMREUSE_PORT_BASE"
        fi
        base=$((20000 + (base - 20000 + 1213) % 9600))
    done
    HPC_PORT_BASE=$base
}

# Port of service $1 (a master name, or a node name with node index $2).
_hpc_port() {
    local k
    if [[ -z ${2:-} ]]; then
        for k in "${!_hpc_port_names_master[@]}"; do
            [[ ${_hpc_port_names_master[k]} == "$1" ]] && { printf '%s' $((HPC_PORT_BASE + k)); return; }
        done
    else
        for k in "${!_hpc_port_names_node[@]}"; do
            [[ ${_hpc_port_names_node[k]} == "$1" ]] && { printf '%s' $((HPC_PORT_BASE + 10 * (($2 - 1) % 100 + 1) + k)); return; }
        done
    fi
    return 1
}

_hpc_places() {
    local id
    id=$(_hpc_job_id)
    HPC_JOB_ID=${id:-manual-$$}
    local submit
    if [[ $HPC_SCHED == pjm ]]; then
        submit=${PJM_O_WORKDIR:-$PWD}
    else
        submit=${SLURM_SUBMIT_DIR:-$PWD}
    fi
    HPC_OUT=${JVMREUSE_OUTPUT_DIR:-$submit/jvmreuse-$HPC_JOB_ID}
    [[ $HPC_OUT == /* ]] || HPC_OUT=$submit/$HPC_OUT
    HPC_WORK=${JVMREUSE_WORK_DIR:-$HPC_OUT/run}
    HPC_DATA=${JVMREUSE_DATA_DIR:-$HPC_OUT/data}
    HPC_SOCKET_DIR=${JVMREUSE_SOCKET_DIR:-/tmp/jvmreuse-$EUID-$HPC_JOB_ID}
    local p
    for p in "$HPC_OUT" "$HPC_WORK" "$HPC_DATA" "$HPC_SOCKET_DIR" "${JVMREUSE_LOCAL_DIR:-/}"; do
        [[ $p == /* && ! $p =~ [[:space:]:,@] ]] || _hpc_die "the path '$p' must be absolute, without spaces, ':', ',' or '@' (class paths and Hadoop lists split on them)"
    done
    if ((${#HPC_SOCKET_DIR} + ${#HPC_N} + 12 > 107)); then
        _hpc_die "the socket dir JVMREUSE_SOCKET_DIR=$HPC_SOCKET_DIR is too long for a Unix socket (107 bytes)"
    fi
    if [[ -e $HPC_WORK/job.env ]]; then
        _hpc_die "the work dir $HPC_WORK holds another job (job.env): choose a new JVMREUSE_OUTPUT_DIR / JVMREUSE_WORK_DIR"
    fi
}

# The NodeManager local dir of node $1 (name): node-local disk or the shared work dir.
_hpc_node_local_dir() {
    if [[ -n $JVMREUSE_LOCAL_DIR ]]; then
        printf '%s/jvmreuse-%s-%s/%s/local' "$JVMREUSE_LOCAL_DIR" "$EUID" "$HPC_JOB_ID" "$1"
    else
        printf '%s/nodes/%s/local' "$HPC_WORK" "$1"
    fi
}

# ---------------------------------------------------------------------------------------------
# Configuration from the templates in job-scripts/conf

# Values for the templates (lib/hadoop-conf.sh) shared by every node.
_hpc_template_values() {
    local fs=file:/// app_cp am_opts
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        fs=hdfs://$HPC_MASTER_ADDR:$(_hpc_port nn)
    fi
    app_cp="$HPC_WORK/master/conf,$JVMREUSE_HADOOP_LIB/*${JVMREUSE_PATCH_JAR:+,$JVMREUSE_PATCH_JAR}"
    if [[ $JVMREUSE_POOL == 1 && $JVMREUSE_MPI_SHUFFLE == 1 ]]; then
        app_cp+=",$JVMREUSE_MPI_SHUFFLE_JAR"
    fi
    am_opts=$(_jvmreuse_am_opts $((JVMREUSE_AM_MEMORY * 3 / 4)))
    JVMREUSE_CONF_TEMPLATES=$HPC_CONF_DIR
    declare -gA JVMREUSE_CONF=([FS_DEFAULT]=$fs [WORK_DIR]=$HPC_WORK [MASTER_ADDR]=$HPC_MASTER_ADDR [BIND_ADDR]=0.0.0.0
        [NM_MEMORY]=$JVMREUSE_NM_MEMORY [VCORES]=$HPC_VCORES [APP_CLASSPATH]=$app_cp [AM_OPTS]=${am_opts% }
        [AM_MEMORY]=$JVMREUSE_AM_MEMORY [TASK_MEMORY]=$JVMREUSE_TASK_MEMORY [EXTRA_PROPERTIES]='' [EXECUTOR_CLASS]=$JVMREUSE_EXECUTOR_CLASS
        [UMBILICAL_ENGINE]=$(jvmreuse_umbilical_engine)
        [POOL_CLIENT]=${JVMREUSE_CLIENT:-} [SLOT_HEAP]=$JVMREUSE_SLOT_HEAP [PORT_RM]=$(_hpc_port rm) [PORT_RM_SCHEDULER]=$(_hpc_port rm_scheduler)
        [PORT_RM_TRACKER]=$(_hpc_port rm_tracker) [PORT_RM_ADMIN]=$(_hpc_port rm_admin) [PORT_RM_WEB]=$(_hpc_port rm_web)
        [PORT_JHS]=$(_hpc_port jhs) [PORT_JHS_WEB]=$(_hpc_port jhs_web) [PORT_NN]=$(_hpc_port nn)
        [PORT_NN_HTTP]=$(_hpc_port nn_http))
}

# Writes <work>/master/conf and <work>/nodes/<node>/conf for every node (by-index/<i> links to it).
_hpc_write_configs() {
    local i name
    mkdir -p "$HPC_WORK/nodes/by-index"
    _hpc_template_values
    jvmreuse_conf_write_shared "$HPC_WORK/master/conf" || _hpc_die "cannot write the Hadoop configuration"
    for i in "${!HPC_NODES[@]}"; do
        name=${HPC_NODES[i]}
        _hpc_write_node_config "$((i + 1))" "$name"
        ln -sfn "../$name" "$HPC_WORK/nodes/by-index/$((i + 1))"
    done
}

# Writes the configuration of node $2 (index $1): the shared files plus its NodeManager's ports
# and dirs, its shuffle port, its pool socket (pool mode) and its DataNode (HDFS).
_hpc_write_node_config() {
    local i=$1 name=$2 nd s
    nd=$HPC_WORK/nodes/$name
    mkdir -p "$nd/logs" "$nd/pids" "$nd/container-logs"
    JVMREUSE_CONF[NODE_NAME]=$name
    JVMREUSE_CONF[NODE_INDEX]=$i
    JVMREUSE_CONF[NODE_LOCAL_DIR]=$(_hpc_node_local_dir "$name")
    JVMREUSE_CONF[NODE_LOG_DIR]=$nd/container-logs
    JVMREUSE_CONF[DN_DATA_DIR]=${JVMREUSE_CONF[NODE_LOCAL_DIR]}/hdfs-data
    JVMREUSE_CONF[POOL_SOCKET]=$HPC_SOCKET_DIR/pool$i.sock
    for s in "${_hpc_port_names_node[@]}"; do
        JVMREUSE_CONF[PORT_${s^^}]=$(_hpc_port "$s" "$i")
    done
    jvmreuse_conf_write_node "$nd/conf" || _hpc_die "cannot write the Hadoop configuration of node $name"
    printf 'NODE_LOCAL_DIR=%q\n' "${JVMREUSE_CONF[NODE_LOCAL_DIR]}" >"$nd/node.env"
}

# Writes <work>/job.env: what the node agents (hpc-node.sh) need.
_hpc_write_job_env() {
    {
        printf '# written by hpc-job.sh for the node agents of job %s\n' "$HPC_JOB_ID"
        local v
        for v in HPC_SCHED HPC_JOB_ID HPC_WORK HPC_OUT HPC_REPO HPC_SOCKET_DIR HPC_N HPC_SLOTS HPC_MASTER_ADDR \
            JVMREUSE_POOL JVMREUSE_HDFS JVMREUSE_LOCAL_DIR JVMREUSE_START_TIMEOUT JVMREUSE_STOP_TIMEOUT \
            JVMREUSE_DAEMON_HEAP JVMREUSE_CLUSTER_JAVA_HOME JVMREUSE_HADOOP_LIB JVMREUSE_PATCH_JAR JVMREUSE_JAVA_MAJOR; do
            printf '%s=%q\n' "$v" "${!v:-}"
        done
    } >"$HPC_WORK/job.env"
    printf '%s\n' "${HPC_NODES[@]}" >"$HPC_WORK/nodes.txt"
}

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
# spare ranks: the batch request holds SLOTS+1 ranks per node.
_hpc_pool_command() {
    local per=$((HPC_SLOTS + 1)) k tail=() nodes=$HPC_N pools=1 per_node
    JVMREUSE_POOL_EXTRA_ARGS=(--ranks-per-pool "$per")
    if ((HPC_SHARED_HOST == 1)); then
        # All pools on the master's host, one launch (pool.sh adds --ranks-per-pool itself).
        nodes=1 pools=$HPC_N
        JVMREUSE_POOL_EXTRA_ARGS=()
    fi
    per_node=$((per * pools))
    if [[ $JVMREUSE_MPI_SHUFFLE == 1 ]]; then
        JVMREUSE_POOL_EXTRA_ARGS+=(--service org.jvmreuse.shuffle.server.ShuffleManager
            --service-cp "$JVMREUSE_MPI_SHUFFLE_JAR:$JVMREUSE_HADOOP_LIB/*"
            --service-opt "conf-dir=$HPC_WORK/nodes/by-index/%n/conf")
    fi
    _jvmreuse_cluster_warmup
    MPIRUN=$HPC_MPIRUN JVMREUSE_SOCKET="$HPC_SOCKET_DIR/pool%n.sock" JVMREUSE_POOL_LOG_DIR="$HPC_WORK/nodes/by-index/%n/pool-logs" \
        JVMREUSE_NODES=$nodes JVMREUSE_POOLS=$pools JVMREUSE_SLOTS=$HPC_SLOTS JVMREUSE_SPARES=0 JVMREUSE_SLOT_HEAP=$JVMREUSE_SLOT_HEAP \
        JVMREUSE_JAVA=$JVMREUSE_CLUSTER_JAVA_HOME/bin/java JVMREUSE_WARMUP_MAIN=$JVMREUSE_CLUSTER_WARMUP_MAIN \
        JVMREUSE_WARMUP_CP=$JVMREUSE_CLUSTER_WARMUP_CP JVMREUSE_WARMUP_MAIN_RUNS=${JVMREUSE_WARMUP_MAIN_RUNS:-5} \
        JVMREUSE_WARMUP_RUNS=${JVMREUSE_WARMUP_RUNS:-20} jvmreuse_pool_command || _hpc_die "cannot build the pool launch command"
    HPC_POOL_CMD=("${JVMREUSE_POOL_CMD[@]}")
    if [[ $JVMREUSE_POOL_LAUNCHER != mpirun ]]; then
        # The program part (exec-jvm java ... PoolMain ...) under another launcher.
        for k in "${!JVMREUSE_POOL_CMD[@]}"; do
            if [[ ${JVMREUSE_POOL_CMD[k]} == */exec-jvm ]]; then
                tail=("${JVMREUSE_POOL_CMD[@]:k}")
                break
            fi
        done
        ((${#tail[@]} > 0)) || _hpc_die "cannot find the program in the pool command: ${JVMREUSE_POOL_CMD[*]}"
        if [[ $JVMREUSE_POOL_LAUNCHER == srun ]]; then
            HPC_POOL_CMD=(srun --overlap --mpi=pmix --overcommit --kill-on-bad-exit=0 -N "$nodes" -n "$((per_node * nodes))"
                --ntasks-per-node="$per_node")
            if ((HPC_SHARED_HOST == 1)); then
                HPC_POOL_CMD+=(-w "$HPC_MASTER")
            fi
            HPC_POOL_CMD+=("${tail[@]}")
        else
            _hpc_mpiexec_cmd "$per_node" "$nodes"
            HPC_POOL_CMD=("${HPC_MPIEXEC_CMD[@]}" "${tail[@]}")
        fi
    fi
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

# Whether the RM reports $1 active NodeManagers.
_hpc_rm_nodes() {
    local metrics
    metrics=$(curl -sf --max-time 3 "http://$HPC_MASTER_ADDR:$(_hpc_port rm_web)/ws/v1/cluster/metrics" 2>/dev/null) || return 1
    [[ $metrics =~ \"activeNodes\":([0-9]+) ]] && ((BASH_REMATCH[1] >= $1))
}

# Waits until every NodeManager is registered and the JobHistoryServer answers; fails early when
# a daemon, an agent or the pools' launch dies.
_hpc_wait_ready() {
    local deadline f name jhs
    deadline=$(($(date +%s) + JVMREUSE_START_TIMEOUT))
    jhs=$(_hpc_port jhs)
    until _hpc_rm_nodes "$HPC_N" && (exec 3<>"/dev/tcp/$HPC_MASTER_ADDR/$jhs") 2>/dev/null; do
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

# ---------------------------------------------------------------------------------------------
# Workloads

# Runs the job client: `hadoop ARGS...` with output to log $1 (and the tail on failure).
_hpc_hadoop() {
    local log=$1
    shift
    if ! _hpc_run "$log" "$HPC_WORK/master/bin/hadoop" "$@"; then
        _hpc_show_log "$log"
        _hpc_log "ERROR: hadoop $* failed (log: $log)"
        return 1
    fi
}

# With HDFS, an input on the shared file system is copied into the job's HDFS first; prints the
# path the jobs read ($1: where generated input goes).
_hpc_input() {
    if [[ -z $JVMREUSE_INPUT ]]; then
        printf '%s' "$1"
    elif [[ $JVMREUSE_HDFS == 1 ]]; then
        printf '%s' "$HPC_DATA/input"
    else
        printf '%s' "${JVMREUSE_INPUT#file://}"
    fi
}

_hpc_stage_input() {
    if [[ -n $JVMREUSE_INPUT && $JVMREUSE_HDFS == 1 ]]; then
        _hpc_log "copying JVMREUSE_INPUT=$JVMREUSE_INPUT into HDFS ($HPC_DATA/input)"
        _hpc_hadoop "$HPC_OUT/logs/stage-input.log" fs -mkdir -p "$HPC_DATA" || return 1
        _hpc_hadoop "$HPC_OUT/logs/stage-input.log" fs -put "file://${JVMREUSE_INPUT#file://}" "$HPC_DATA/input" || return 1
    fi
}

_hpc_workload_pagerank() {
    local input mode
    input=$(_hpc_input "$HPC_DATA/graph")
    _hpc_stage_input || return 1
    mode=$([[ $JVMREUSE_POOL == 1 ]] && echo pool || echo stock)
    if [[ -z $JVMREUSE_INPUT ]]; then
        _hpc_log "generating a graph of $JVMREUSE_PAGERANK_NODES nodes in $input"
        _hpc_hadoop "$HPC_OUT/logs/generate.log" jar "$HPC_WORKLOADS_JAR" generate-graph --output "$input" \
            --nodes "$JVMREUSE_PAGERANK_NODES" --parts "$HPC_N" || return 1
    fi
    _hpc_log "PageRank: $JVMREUSE_ITERATIONS iterations, $HPC_REDUCERS reducers, mode $mode (log: logs/workload.log)"
    _hpc_hadoop "$HPC_OUT/logs/workload.log" jar "$HPC_WORKLOADS_JAR" pagerank --input "$input" --output "$HPC_DATA/pagerank" \
        --iterations "$JVMREUSE_ITERATIONS" --reducers "$HPC_REDUCERS" --label pagerank --timings "$HPC_OUT/timings" \
        --results "$HPC_OUT/timings/results.csv" --mode "$mode" || return 1
    if [[ $JVMREUSE_VERIFY == 1 ]]; then
        _hpc_log "checking the ranks against the in-memory reference (verify-pagerank)"
        _hpc_hadoop "$HPC_OUT/logs/verify.log" jar "$HPC_WORKLOADS_JAR" verify-pagerank --graph "$input" \
            --output "$HPC_DATA/pagerank" || { _hpc_log "ERROR: verify-pagerank failed: the ranks differ from the reference"; return 1; }
        HPC_VERIFIED="verify-pagerank passed: $(tail -n 1 "$HPC_OUT/logs/verify.log")"
    fi
}

_hpc_workload_kmeans() {
    local input mode
    input=$(_hpc_input "$HPC_DATA/points")
    _hpc_stage_input || return 1
    mode=$([[ $JVMREUSE_POOL == 1 ]] && echo pool || echo stock)
    if [[ -z $JVMREUSE_INPUT ]]; then
        _hpc_log "generating $JVMREUSE_KMEANS_POINTS points (k $JVMREUSE_KMEANS_K, $JVMREUSE_KMEANS_DIMENSIONS dimensions) in $input"
        _hpc_hadoop "$HPC_OUT/logs/generate.log" jar "$HPC_WORKLOADS_JAR" generate-points --output "$input" \
            --points "$JVMREUSE_KMEANS_POINTS" --k "$JVMREUSE_KMEANS_K" --dimensions "$JVMREUSE_KMEANS_DIMENSIONS" \
            --parts "$HPC_N" || return 1
    fi
    _hpc_log "K-means: k $JVMREUSE_KMEANS_K, $JVMREUSE_ITERATIONS iterations, $HPC_REDUCERS reducers, mode $mode (log: logs/workload.log)"
    _hpc_hadoop "$HPC_OUT/logs/workload.log" jar "$HPC_WORKLOADS_JAR" kmeans --input "$input" --output "$HPC_DATA/kmeans" \
        --k "$JVMREUSE_KMEANS_K" --iterations "$JVMREUSE_ITERATIONS" --reducers "$HPC_REDUCERS" --label kmeans \
        --timings "$HPC_OUT/timings" --results "$HPC_OUT/timings/results.csv" --mode "$mode" || return 1
    if [[ $JVMREUSE_VERIFY == 1 ]]; then
        _hpc_log "checking the centroids against the in-memory reference (verify-kmeans)"
        _hpc_hadoop "$HPC_OUT/logs/verify.log" jar "$HPC_WORKLOADS_JAR" verify-kmeans --input "$input" \
            --output "$HPC_DATA/kmeans" || { _hpc_log "ERROR: verify-kmeans failed: the centroids differ from the reference"; return 1; }
        HPC_VERIFIED="verify-kmeans passed: $(tail -n 1 "$HPC_OUT/logs/verify.log")"
    fi
}

# The run time (ms) of job $1 as the JobHistoryServer records it, from the workloads' timing
# tool (job-time), or empty.
_hpc_job_ms() {
    local ms
    ms=$("$HPC_WORK/master/bin/hadoop" jar "$HPC_WORKLOADS_JAR" job-time --job "$1" 2>>"$HPC_OUT/logs/job-time.log" </dev/null |
        tail -n 1) || true
    [[ ! $ms =~ ^[0-9]+$ ]] || printf '%s' "$ms"
}

_hpc_workload_terasort_compare() {
    local input v log t0 t1 job jhs_ms checksum mpi_maps http_maps csv=$HPC_OUT/timings/terasort-compare.csv opts
    local rows=()
    input=$(_hpc_input "$HPC_DATA/tera-in")
    _hpc_stage_input || return 1
    mkdir -p "$HPC_OUT/timings"
    if [[ -z $JVMREUSE_INPUT ]]; then
        _hpc_log "teragen: $JVMREUSE_TERASORT_ROWS rows into $input"
        _hpc_hadoop "$HPC_OUT/logs/teragen.log" jar "$HPC_EXAMPLES_JAR" teragen -Dmapreduce.job.maps="$HPC_N" \
            "$JVMREUSE_TERASORT_ROWS" "$input" || return 1
    fi
    printf 'variant,job_id,client_ms,jhs_job_ms,validate,checksum,mpi_maps,http_maps\n' >"$csv"
    for v in $JVMREUSE_TERASORT_VARIANTS; do
        opts=(-Dmapreduce.job.reduces="$HPC_REDUCERS" -Dmapreduce.terasort.simplepartitioner=true)
        if [[ $v == mpi ]]; then
            opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class=org.jvmreuse.shuffle.reduce.MpiShuffle
                -Djvmreuse.shuffle.mode=concurrent)
        fi
        log=$HPC_OUT/logs/terasort-$v.log
        _hpc_log "terasort with the $v shuffle (log: logs/terasort-$v.log)"
        t0=$(date +%s%3N)
        _hpc_hadoop "$log" jar "$HPC_EXAMPLES_JAR" terasort "${opts[@]}" "$input" "$HPC_DATA/tera-out-$v" || return 1
        t1=$(date +%s%3N)
        job=$(grep -o 'Running job: job_[0-9_]*' "$log" | head -n 1 | awk '{ print $3 }' || true)
        jhs_ms=''
        [[ -z $job ]] || jhs_ms=$(_hpc_job_ms "$job")
        _hpc_log "teravalidate of the $v output"
        _hpc_hadoop "$HPC_OUT/logs/teravalidate-$v.log" jar "$HPC_EXAMPLES_JAR" teravalidate \
            "$HPC_DATA/tera-out-$v" "$HPC_DATA/tera-validate-$v" || return 1
        if grep -qiE 'misorder|error' "$HPC_DATA/tera-validate-$v"/part-* 2>/dev/null ||
            ! checksum=$(sed -n 's/^checksum[[:space:]]*//p' "$HPC_DATA/tera-validate-$v"/part-* 2>/dev/null) || [[ -z $checksum ]]; then
            _hpc_log "ERROR: teravalidate found the $v output unsorted or incomplete: $(cat "$HPC_DATA/tera-validate-$v"/part-* 2>/dev/null | head -n 5)"
            return 1
        fi
        # The MPI shuffle's counters: maps fetched over MPI and over HTTP (absent for the stock shuffle).
        mpi_maps=$(sed -n 's/^[[:space:]]*MPI_MAPS=//p' "$log" | tail -n 1)
        http_maps=$(sed -n 's/^[[:space:]]*HTTP_MAPS=//p' "$log" | tail -n 1)
        printf '%s,%s,%s,%s,ok,%s,%s,%s\n' "$v" "$job" $((t1 - t0)) "$jhs_ms" "$checksum" "$mpi_maps" "$http_maps" >>"$csv"
        rows+=("$(printf '%-8s %-26s %10.1f %12s %9s %9s %8s %s' "$v" "${job:--}" "$(awk -v m=$((t1 - t0)) 'BEGIN { print m / 1000 }')" \
            "$([[ -n $jhs_ms ]] && awk -v m="$jhs_ms" 'BEGIN { printf "%.1f", m / 1000 }' || echo -)" "${mpi_maps:--}" "${http_maps:--}" ok "$checksum")")
    done
    {
        printf '\nTeraSort: %s rows, %s reducers, %s nodes, pool %s\n' "$JVMREUSE_TERASORT_ROWS" "$HPC_REDUCERS" "$HPC_N" "$JVMREUSE_POOL"
        printf '%-8s %-26s %10s %12s %9s %9s %8s %s\n' shuffle job client_s job_s\(JHS\) mpi_maps http_maps validate checksum
        printf '%s\n' "${rows[@]}"
    } | tee "$HPC_OUT/terasort-compare.txt"
    if (($(cut -d, -f6 "$csv" | tail -n +2 | sort -u | wc -l) > 1)); then
        _hpc_log "ERROR: the variants' teravalidate checksums differ: $csv"
        return 1
    fi
}

_hpc_workload_command() {
    _hpc_log "running the command: $JVMREUSE_COMMAND (log: logs/workload.log)"
    if ! JVMREUSE_OUTPUT_DIR=$HPC_OUT JVMREUSE_WORKLOADS_JAR=$HPC_WORKLOADS_JAR JVMREUSE_EXAMPLES_JAR=$HPC_EXAMPLES_JAR \
        _hpc_run "$HPC_OUT/logs/workload.log" bash -c "source \"\$1\" && eval \"\$2\"" _ "$HPC_WORK/master/env.sh" "$JVMREUSE_COMMAND"; then
        _hpc_show_log "$HPC_OUT/logs/workload.log"
        _hpc_log "ERROR: the command failed"
        return 1
    fi
}

# ---------------------------------------------------------------------------------------------
# Stopping

# Processes of this job on this host that are left: their environment names this job (the
# scheduler's job id, or JVMREUSE_JOB_WORK=<work dir>); not this shell, its ancestors or its
# session. One grep over all /proc/*/environ.
_hpc_leftovers() {
    local f pid mysid skip patterns=(-e "JVMREUSE_JOB_WORK=$HPC_WORK")
    case $HPC_SCHED in
        slurm) patterns+=(-e "SLURM_JOB_ID=$HPC_JOB_ID") ;;
        pjm) patterns+=(-e "PJM_JOBID=$HPC_JOB_ID") ;;
    esac
    mysid=$(jvmreuse_stat_field $$ sid || echo 0)
    skip=$(jvmreuse_protected_pids)
    while IFS= read -r f; do
        pid=${f#/proc/}
        pid=${pid%/environ}
        [[ $pid =~ ^[0-9]+$ && $skip != *" $pid "* && -O /proc/$pid ]] || continue
        _jvmreuse_alive "$pid" || continue
        [[ $(jvmreuse_stat_field "$pid" sid) != "$mysid" ]] || continue
        printf '%s\n' "$pid"
    done < <(grep -lzxF "${patterns[@]}" /proc/[0-9]*/environ 2>/dev/null || true)
}


# PIDs in pid files $@ that are alive.
_hpc_pids_of() {
    local f pid
    for f in "$@"; do
        [[ -f $f ]] || continue
        pid=$(cat "$f" 2>/dev/null || true)
        [[ $pid =~ ^[0-9]+$ ]] && _jvmreuse_alive "$pid" && printf '%s\n' "$pid"
    done
    return 0
}

# NodeManager/DataNode PIDs of nodes that run on this host (their pid file says so).
_hpc_local_node_pids() {
    local f host
    host=$(uname -n)
    for f in "$HPC_WORK"/nodes/*/pids/*.pid; do
        [[ -f $f && $(cat "${f%.pid}.host" 2>/dev/null) == "$host" ]] || continue
        _hpc_pids_of "$f"
    done
}

# Stops everything the job started, by PID. Graceful after a normal run (agents stop their
# NodeManagers, then RM/JHS, then the pools); fast after a signal or the time limit (everything
# at once, SIGKILL after 3 s: scancel gives only KillWait seconds). Then ends leftover job processes.
_hpc_teardown() {
    local status=$? pids=() limit t0 leftovers=()
    trap '' INT TERM
    [[ -n ${HPC_WORK:-} && -d ${HPC_WORK:-/nonexistent}/master ]] || return "$status"
    [[ -z ${HPC_TORN_DOWN:-} ]] || return "$status"
    HPC_TORN_DOWN=1
    _hpc_mode_post_hook "$status" || status=$?
    t0=$(date +%s)
    touch "$HPC_WORK/stop" 2>/dev/null || true
    limit=$JVMREUSE_STOP_TIMEOUT
    if [[ -n ${HPC_FAST:-} ]]; then
        limit=2
        _hpc_log "stopping everything now (signal or time limit)"
        # Everything at once: the daemons, the launches, the client, and every other process of
        # the job on this host (task containers too), so that it is over before Slurm's SIGKILL.
        mapfile -t pids < <(
            [[ -z ${HPC_CHILD:-} ]] || { _jvmreuse_alive "$HPC_CHILD" && printf '%s\n' "$HPC_CHILD"; }
            _hpc_local_node_pids
            _hpc_pids_of "$HPC_WORK"/master/pids/*.pid
            _hpc_leftovers
        )
        jvmreuse_terminate "$limit" _hpc_log ${pids[@]+"${pids[@]}"}
    else
        _hpc_log "stopping: NodeManagers (agents), then ResourceManager and JobHistoryServer, then the pools"
        if [[ -n ${HPC_CHILD:-} ]] && _jvmreuse_alive "$HPC_CHILD"; then
            jvmreuse_terminate 3 _hpc_log "$HPC_CHILD"
        fi
        # The agents see <work>/stop within a second and stop their daemons.
        mapfile -t pids < <(_hpc_pids_of "$HPC_WORK"/master/pids/agent*.pid)
        local waited=0 alive
        while ((${#pids[@]} > 0 && waited < limit * 10 + 50)); do
            alive=()
            for p in "${pids[@]}"; do _jvmreuse_alive "$p" && alive+=("$p"); done
            ((${#alive[@]} > 0)) || break
            sleep 0.1
            waited=$((waited + 1))
        done
        mapfile -t pids < <(_hpc_pids_of "$HPC_WORK"/master/pids/agent*.pid; _hpc_local_node_pids)
        jvmreuse_terminate "$limit" _hpc_log ${pids[@]+"${pids[@]}"}
        mapfile -t pids < <(_hpc_pids_of "$HPC_WORK"/master/pids/{resourcemanager,historyserver,namenode}.pid)
        jvmreuse_terminate "$limit" _hpc_log ${pids[@]+"${pids[@]}"}
        if [[ -f $HPC_WORK/master/pids/pools.pid ]] && [[ -n ${JVMREUSE_CLIENT:-} ]]; then
            local s
            for s in "$HPC_SOCKET_DIR"/pool*.sock; do
                if [[ -S $s ]]; then
                    "$JVMREUSE_CLIENT" --socket "$s" stop --now >/dev/null 2>&1 || true
                fi
            done
            mapfile -t pids < <(_hpc_pids_of "$HPC_WORK/master/pids/pools.pid")
            waited=0
            while ((${#pids[@]} > 0 && waited < 100)) && _jvmreuse_alive "${pids[0]}"; do
                sleep 0.1
                waited=$((waited + 1))
            done
        fi
        mapfile -t pids < <(_hpc_pids_of "$HPC_WORK"/master/pids/*.pid)
        jvmreuse_terminate "$limit" _hpc_log ${pids[@]+"${pids[@]}"}
    fi
    wait 2>/dev/null || true
    mapfile -t leftovers < <(_hpc_leftovers)
    if ((${#leftovers[@]} > 0)); then
        local what=() comm
        for p in "${leftovers[@]}"; do
            comm='?'
            read -r comm 2>/dev/null <"/proc/$p/comm" || true
            what+=("$p ($comm)")
        done
        _hpc_log "ending leftover processes of the job: ${what[*]}"
        jvmreuse_terminate "$([[ -n ${HPC_FAST:-} ]] && echo 1 || echo 3)" _hpc_log "${leftovers[@]}"
    fi
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
        printf 'workload %s, pool %s, MPI shuffle %s, slots %s, exit status %s\n' "$JVMREUSE_WORKLOAD" "$JVMREUSE_POOL" \
            "$JVMREUSE_MPI_SHUFFLE" "${HPC_SLOTS:-}" "$status"
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

_hpc_phase() {
    local now
    now=$(date +%s)
    HPC_PHASES+=("$1,$((now - HPC_PHASE_T))")
    HPC_PHASE_T=$now
}

# ---------------------------------------------------------------------------------------------
# Main

hpc_job_main() {
    HPC_SCHED=${1:?hpc_job_main slurm|pjm}
    [[ $HPC_SCHED == slurm || $HPC_SCHED == pjm ]] || _hpc_die "hpc_job_main: unknown scheduler '$HPC_SCHED' (slurm or pjm)"
    HPC_T0=$(date +%s)
    HPC_PHASE_T=$HPC_T0
    HPC_PHASES=()
    HPC_REPO=$(_hpc_find_repo) || _hpc_die "cannot find the jvmreuse checkout: set JVMREUSE_HOME to it (the scheduler runs a copy of the job script)"
    HPC_CONF_DIR=$HPC_REPO/job-scripts/conf
    # The sbin dirs and the repository's job clients.
    local sbin
    for sbin in /usr/local/sbin /usr/sbin /sbin; do
        [[ :$PATH: == *:$sbin:* ]] || PATH=$PATH:$sbin
    done
    export PATH
    _hpc_load_settings
    jvmreuse_cluster_init "$HPC_REPO"
    JVMREUSE_DAEMON_HEAP=${JVMREUSE_DAEMON_HEAP:-1000m}
    JVMREUSE_STOP_TIMEOUT=${JVMREUSE_STOP_TIMEOUT:-10}
    JVMREUSE_CLUSTER_DIR=/nonexistent # hadoop-cluster.sh functions get their dir per call

    # 1. Everything that can be wrong is checked before anything starts.
    _hpc_validate_settings
    _hpc_mode_validate
    _hpc_read_nodes
    _hpc_check_memory
    _hpc_validate_build
    HPC_REDUCERS=${JVMREUSE_REDUCERS:-$HPC_N}
    HPC_MASTER_ADDR=${JVMREUSE_MASTER_ADDR:-$(uname -n)}
    _hpc_places
    _hpc_pick_ports
    _hpc_log "job $(_hpc_job_id) ($HPC_SCHED): $HPC_N nodes (${HPC_NODES[*]}), master $HPC_MASTER ($HPC_MASTER_ADDR), workload $JVMREUSE_WORKLOAD"
    _hpc_log "config $HPC_CONF_FILE; output $HPC_OUT; ports from $HPC_PORT_BASE; memory: $HPC_MEMORY_LINE"

    # 2. From here on, whatever happens, everything is stopped.
    mkdir -p "$HPC_OUT/logs" "$HPC_OUT/timings" "$HPC_WORK/master/logs" "$HPC_WORK/master/pids" "$HPC_WORK/tmp" "$HPC_DATA"
    HPC_CHILD=
    trap '_hpc_teardown' EXIT
    trap '_hpc_on_signal TERM' TERM
    trap '_hpc_on_signal INT' INT
    _hpc_set_deadline
    local v
    for v in "${HPC_SETTINGS[@]}"; do
        v=${v%%=*}
        printf '%s=%q\n' "$v" "${!v}"
    done >"$HPC_OUT/settings.txt"
    _hpc_write_configs
    _hpc_write_job_env
    JVMREUSE_CLUSTER_DIR=$HPC_WORK/master _jvmreuse_cluster_write_client
    export JVMREUSE_JOB_WORK=$HPC_WORK
    _hpc_phase prepare

    # 3. Daemons, pools, NodeManagers.
    _hpc_start_master
    _hpc_start_pools
    _hpc_start_agents
    _hpc_wait_ready
    _hpc_phase startup
    _hpc_log "cluster ready in $(($(date +%s) - HPC_T0)) s: $HPC_N NodeManagers; RM http://$HPC_MASTER_ADDR:$(_hpc_port rm_web)," \
        "JobHistory http://$HPC_MASTER_ADDR:$(_hpc_port jhs_web); clients: . $HPC_WORK/master/env.sh"
    _hpc_mode_ready
    [[ $JVMREUSE_MODE != setup-only ]] || return 0

    # 4. The workload.
    local status=0
    case $JVMREUSE_WORKLOAD in
        pagerank) _hpc_workload_pagerank || status=$? ;;
        kmeans) _hpc_workload_kmeans || status=$? ;;
        terasort-compare) _hpc_workload_terasort_compare || status=$? ;;
        command) _hpc_workload_command || status=$? ;;
    esac
    _hpc_phase workload
    if ((status == 0)); then
        _hpc_log "the workload $JVMREUSE_WORKLOAD succeeded${HPC_VERIFIED:+; $HPC_VERIFIED}"
    else
        _hpc_log "ERROR: the workload $JVMREUSE_WORKLOAD failed (status $status); logs in $HPC_OUT/logs"
    fi
    exit "$status"
}
