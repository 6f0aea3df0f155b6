# shellcheck shell=bash disable=SC2034 # the lists are read by the files that source this one
#
# defaults.sh -- the one list of default settings, read by every entry point that runs Hadoop:
# the one-machine cluster (cluster/local-cluster.sh, bin/jvmreuse-cluster) and HPC jobs
# (batch/hpc-job.sh, whose conf/jvmreuse-job.conf only documents them). Sourced. Each list holds NAME=default words.
#
#   JVMREUSE_DEFAULTS          settings both share, with the same default
#   JVMREUSE_CLUSTER_DEFAULTS  the cluster's own settings, and the ones whose default differs
#   JVMREUSE_JOB_DEFAULTS      the HPC job's own settings, and the ones whose default differs
#   jvmreuse_defaults_fill NAME=VALUE...   sets each NAME that is unset or empty to VALUE
#   jvmreuse_settings_check    checks the settings both share (JVMREUSE_DEFAULTS' numbers, switches,
#                              heap sizes and the Hadoop version); prints the first problem and
#                              returns 1. Each entry point checks its own settings after it
#   jvmreuse_mb SIZE           a heap size (512m, 1g, 524288k; a bare number is MB) in MB; nothing if it is none

JVMREUSE_DEFAULTS=(
    # the Hadoop to run, one of hadoop-version.sh's
    JVMREUSE_HADOOP_VERSION=2.2.0
    JVMREUSE_MPI_SHUFFLE=1 JVMREUSE_SLOT_HEAP=512m JVMREUSE_NM_MEMORY=2048 JVMREUSE_TASK_MEMORY=512
    JVMREUSE_HDFS=0 JVMREUSE_DAEMON_HEAP=1000m JVMREUSE_STOP_TIMEOUT=10
    # more JVM options for the Hadoop daemons, split on spaces (none by default)
    JVMREUSE_DAEMON_OPTS=
    # NodeManager heartbeat (ms); empty: 10 ms per node, within 50..1000 (jvmreuse_heartbeat_ms)
    JVMREUSE_HEARTBEAT_MS=
    # small jobs in uber mode (1/0); empty: Hadoop's default, off (jvmreuse_ubertask)
    JVMREUSE_UBER=
    # 1: the cluster is ready only when every pool slot has warmed up; 0: when the daemons are
    # (slots join as they warm up; until then containers take the stock path)
    JVMREUSE_WAIT_WARMUP=0
    # the pool container executor; empty: the Hadoop version's (hadoop-version.sh)
    JVMREUSE_EXECUTOR_CLASS=
    # hadoop-conf.sh: user template overrides and extra properties (none by default)
    JVMREUSE_CONF_OVERRIDES= JVMREUSE_CORE_SITE_EXTRA= JVMREUSE_YARN_SITE_EXTRA= JVMREUSE_MAPRED_SITE_EXTRA=
    JVMREUSE_HDFS_SITE_EXTRA= JVMREUSE_CAPACITY_SCHEDULER_EXTRA=
)

# JVMREUSE_POOL differs on purpose: jvmreuse-cluster is also the stock baseline of comparisons
# (bench/, the tests), so it runs stock unless --pool is given; a batch job is there to run pooled.
JVMREUSE_CLUSTER_DEFAULTS=(
    JVMREUSE_POOL=0 JVMREUSE_CLUSTER_DIR="/tmp/jvmreuse-cluster-$EUID" JVMREUSE_NODEMANAGERS=2
    JVMREUSE_CLUSTER_TIMEOUT=180
)

JVMREUSE_JOB_DEFAULTS=(
    JVMREUSE_POOL=1
    JVMREUSE_WORKLOAD=pagerank JVMREUSE_COMMAND= JVMREUSE_INPUT= JVMREUSE_ITERATIONS=3 JVMREUSE_REDUCERS=
    JVMREUSE_PAGERANK_NODES=10000 JVMREUSE_KMEANS_POINTS=20000 JVMREUSE_KMEANS_K=5 JVMREUSE_KMEANS_DIMENSIONS=4
    JVMREUSE_TERASORT_ROWS=1000000 "JVMREUSE_TERASORT_VARIANTS=http mpi" JVMREUSE_VERIFY=1
    JVMREUSE_SLOTS= JVMREUSE_AM_MEMORY=768 JVMREUSE_VCORES= JVMREUSE_NODE_MEMORY= JVMREUSE_JAVA_HOME=
    # A batch allocation pays its slots' warm-up: they serve at once and warm with the job's first
    # tasks, which took 68-78 s from allocation start to results against 80-98 s with Hadoop's
    # TaskWarmup first (docs/benchmarks.md, "Time to ready"); JVMREUSE_WARMUP_MAIN=task warms first.
    JVMREUSE_WARMUP_MAIN=none
    JVMREUSE_OUTPUT_DIR= JVMREUSE_WORK_DIR= JVMREUSE_DATA_DIR= JVMREUSE_LOCAL_DIR=
    JVMREUSE_SOCKET_DIR= JVMREUSE_POOL_LAUNCHER= JVMREUSE_NM_LAUNCHER= JVMREUSE_MPIRUN= JVMREUSE_MPIEXEC=mpiexec
    JVMREUSE_MPIEXEC_OPTS= JVMREUSE_SHARED_HOST=auto JVMREUSE_MASTER_ADDR= JVMREUSE_BIND_ADDR=auto JVMREUSE_PORT_BASE=
    # A job's daemons, pools and NodeManagers start on several nodes at once: longer than the cluster's 180 s
    JVMREUSE_START_TIMEOUT=300
    JVMREUSE_WALLTIME= JVMREUSE_WALLTIME_MARGIN=120
    JVMREUSE_MODE=batch JVMREUSE_PRE_HOOK= JVMREUSE_POST_HOOK=
)

# The NodeManagers' heartbeat interval in ms for $1 nodes: JVMREUSE_HEARTBEAT_MS if set, else
# 10 ms per node within 50..1000, so that the ResourceManager takes at most 100 heartbeats a second
# up to 100 nodes (20 per node and second on a few nodes) and no more than nodes/s beyond
# (Hadoop's default is 1000 ms). A job's containers are handed out on NodeManager heartbeats: the
# interval is on every job's path.
jvmreuse_heartbeat_ms() {
    local ms=$(($1 * 10))
    if [[ -n $JVMREUSE_HEARTBEAT_MS ]]; then
        ms=$JVMREUSE_HEARTBEAT_MS
    elif ((ms < 50)); then
        ms=50
    elif ((ms > 1000)); then
        ms=1000
    fi
    printf '%s' "$ms"
}

# mapreduce.job.ubertask.enable: true only when JVMREUSE_UBER=1. Uber mode runs a small job's
# tasks one after another in its MRAppMaster, where they share statics, system properties and
# JDK-wide state and an exit in one ends the AM's attempt: not what a task in a new JVM sees, so it
# stays Hadoop's default (off), with the pool as without, unless asked for (README, "Small jobs").
jvmreuse_ubertask() {
    if [[ ${JVMREUSE_UBER:-} == 1 ]]; then
        printf true
    else
        printf false
    fi
}

jvmreuse_defaults_fill() {
    local kv name
    for kv in "$@"; do
        name=${kv%%=*}
        [[ -n ${!name:-} ]] || printf -v "$name" '%s' "${kv#*=}"
    done
}

jvmreuse_mb() {
    local v=$1
    case $v in
        *[gG]) [[ ${v%?} =~ ^[0-9]+$ ]] && printf '%s' $((${v%?} * 1024)) ;;
        *[mM]) [[ ${v%?} =~ ^[0-9]+$ ]] && printf '%s' "${v%?}" ;;
        *[kK]) [[ ${v%?} =~ ^[0-9]+$ ]] && printf '%s' $((${v%?} / 1024)) ;;
        *) [[ $v =~ ^[0-9]+$ ]] && printf '%s' "$v" ;;
    esac
}

jvmreuse_settings_check() {
    local name
    for name in JVMREUSE_NM_MEMORY JVMREUSE_TASK_MEMORY JVMREUSE_STOP_TIMEOUT; do
        [[ ${!name} =~ ^[1-9][0-9]*$ ]] || { echo "$name must be a whole number >= 1 (got '${!name}')"; return 1; }
    done
    for name in JVMREUSE_SLOTS JVMREUSE_HEARTBEAT_MS; do
        [[ -z ${!name:-} || ${!name} =~ ^[1-9][0-9]*$ ]] || { echo "$name must be empty or a whole number >= 1 (got '${!name}')"; return 1; }
    done
    for name in JVMREUSE_MPI_SHUFFLE JVMREUSE_HDFS JVMREUSE_WAIT_WARMUP; do
        [[ ${!name} == [01] ]] || { echo "$name must be 0 or 1 (got '${!name}')"; return 1; }
    done
    jvmreuse_hadoop_version_check || return 1
    [[ -z $JVMREUSE_UBER || $JVMREUSE_UBER == [01] ]] || { echo "JVMREUSE_UBER must be empty, 0 or 1 (got '$JVMREUSE_UBER')"; return 1; }
    for name in JVMREUSE_SLOT_HEAP JVMREUSE_DAEMON_HEAP; do
        [[ -n $(jvmreuse_mb "${!name}") ]] || { echo "$name must be a heap size such as 512m or 1g (got '${!name}')"; return 1; }
    done
}
