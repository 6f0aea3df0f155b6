# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-config.sh -- where everything goes (dirs, ports) and the Hadoop configuration of the
# master and of every node.
# Part of the HPC job library; sourced by hpc-job.sh, which documents the whole.

# ---------------------------------------------------------------------------------------------
# Places and ports

# Sets HPC_PORT_BASE: the job's block of ports (core/ports.sh), the first one tried from the job
# id, checked free on this host (where emulated nodes live).
_hpc_pick_ports() {
    if ! jvmreuse_port_block "$(_hpc_job_id)" "$HPC_N" "$JVMREUSE_PORT_BASE"; then
        _hpc_die "port $JVMREUSE_PORT_BUSY${JVMREUSE_PORT_BASE:+ (from JVMREUSE_PORT_BASE=$JVMREUSE_PORT_BASE)} is in use on $(hostname): choose another JVMREUSE_PORT_BASE"
    fi
    HPC_PORT_BASE=$JVMREUSE_PORT_BLOCK
}

# Port of service $1 (a master name, or a node name with node index $2).
_hpc_port() { jvmreuse_port "$HPC_PORT_BASE" "$@"; }

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

# Values for the templates (core/hadoop-conf.sh) shared by every node.
_hpc_template_values() {
    local name
    local -A master_ports=()
    for name in "${JVMREUSE_MASTER_PORTS[@]}"; do
        master_ports[$name]=$(_hpc_port "$name")
    done
    # The AM's heap: 3/4 of its container, but no more than a slot's, so that pools can take it
    local am_heap=$((JVMREUSE_AM_MEMORY * 3 / 4)) slot_heap
    slot_heap=$(jvmreuse_mb "$JVMREUSE_SLOT_HEAP")
    ((am_heap <= slot_heap)) || am_heap=$slot_heap
    JVMREUSE_CONF_TEMPLATES=$HPC_CONF_DIR
    jvmreuse_conf_values "$HPC_WORK" "$HPC_WORK/master/conf" "$HPC_MASTER_ADDR" 0.0.0.0 "${#HPC_NODES[@]}" \
        "$HPC_VCORES" "$JVMREUSE_AM_MEMORY" "$am_heap" master_ports
}

# Writes <work>/master/conf and <work>/nodes/<node>/conf for every node (by-index/<i> links to it).
_hpc_write_configs() {
    local i name
    mkdir -p "$HPC_WORK/nodes/by-index"
    _hpc_template_values
    jvmreuse_conf_write_shared "$HPC_WORK/master/conf" || _hpc_die "cannot write the Hadoop configuration"
    local listen=()
    for i in "${!HPC_NODES[@]}"; do
        name=${HPC_NODES[i]}
        _hpc_write_node_config "$((i + 1))" "$name"
        ln -sfn "../$name" "$HPC_WORK/nodes/by-index/$((i + 1))"
        listen+=("$name $HPC_BIND_ADDR")
    done
    local IFS=,
    _hpc_log "NodeManagers listen on (JVMREUSE_BIND_ADDR=$JVMREUSE_BIND_ADDR): ${listen[*]}"
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
    _hpc_bind_addr "$name" "$i"
    JVMREUSE_CONF[BIND_ADDR]=$HPC_BIND_ADDR
    for s in "${JVMREUSE_NODE_PORTS[@]}"; do
        JVMREUSE_CONF[PORT_${s^^}]=$(_hpc_port "$s" "$i")
    done
    jvmreuse_conf_write_node "$nd/conf" || _hpc_die "cannot write the Hadoop configuration of node $name"
    printf 'NODE_LOCAL_DIR=%q\nNODE_BIND_ADDR=%q\n' "${JVMREUSE_CONF[NODE_LOCAL_DIR]}" "$HPC_BIND_ADDR" >"$nd/node.env"
}

# Writes <work>/job.env: what the node agents (hpc-node.sh) need.
_hpc_write_job_env() {
    {
        printf '# written by hpc-job.sh for the node agents of job %s\n' "$HPC_JOB_ID"
        local v
        for v in HPC_SCHED HPC_JOB_ID HPC_WORK HPC_OUT HPC_REPO HPC_SOCKET_DIR HPC_N HPC_SLOTS HPC_MASTER_ADDR HPC_SHARED_HOST \
            JVMREUSE_POOL JVMREUSE_WAIT_WARMUP JVMREUSE_HDFS JVMREUSE_LOCAL_DIR JVMREUSE_START_TIMEOUT JVMREUSE_STOP_TIMEOUT \
            JVMREUSE_DAEMON_HEAP JVMREUSE_DAEMON_OPTS JVMREUSE_CLUSTER_JAVA_HOME JVMREUSE_HADOOP_LIB JVMREUSE_PATCH_JAR JVMREUSE_ADMISSION_JAR \
            JVMREUSE_EXECUTOR_JAR JVMREUSE_JAVA_MAJOR JVMREUSE_HADOOP_VERSION; do
            printf '%s=%q\n' "$v" "${!v:-}"
        done
    } >"$HPC_WORK/job.env"
    printf '%s\n' "${HPC_NODES[@]}" >"$HPC_WORK/nodes.txt"
}
