# shellcheck shell=bash source-path=SCRIPTDIR
#
# local-cluster.sh -- a real one-machine Hadoop cluster (ResourceManager, JobHistoryServer,
# N NodeManagers, optionally HDFS and one JVM Reuse pool per NodeManager, all N pools ranks of ONE
# mpirun, so that they share one MPI world, with the MPI shuffle's Shuffle Manager in each pool
# manager), run from the jars that the build copies to hadoop-patch/target/hadoop/lib (Hadoop
# 2.2.0) or hadoop3-patch/target/hadoop/lib (3.5.0; core/hadoop-version.sh), no
# Hadoop tarball. Sourced by bin/jvmreuse-cluster and by test scripts; the caller uses
# `set -euo pipefail`.
#
#   jvmreuse_cluster_init <repo> [start]   defaults; JVMREUSE_CLUSTER_DIR made absolute; with "start":
#                                   checks settings and build, picks the JDK (JVMREUSE_CLUSTER_JAVA_HOME)
#   jvmreuse_cluster_start          writes configs, starts everything, waits until it is healthy (the
#                                   cluster engine, core/engine.sh, with this machine as its place);
#                                   on failure stops what it started and returns 1
#   jvmreuse_cluster_stop           stops everything in the cluster dir by PID, then sweeps leftovers
#                                   (the engine's teardown)
#   jvmreuse_cluster_status         prints the daemons, their PIDs, ports and the RM's node count
#   jvmreuse_cluster_running        whether any daemon of the cluster dir is alive
#
# Layout of the cluster dir D (only these entries are (re)created by a start; other files stay):
#   D/conf/           client, RM and JHS configuration (HADOOP_CONF_DIR for jobs)
#   D/nm<i>/conf/     NodeManager i's configuration; D/nm<i>/local, D/nm<i>/logs: its local and log dirs
#   D/pool<i>/        pool i's socket (pool.sock) and logs (pool mode); pool i serves NodeManager i
#   D/pools.pid       the PID of the one mpirun that runs all pools (pool mode); its output: D/logs/pools.log,
#                     its command line: D/pools.cmd; D/pools.exited: it exited during the start (its end)
#   D/logs/<daemon>.log   stdout/stderr of each daemon; D/pids/<daemon>.pid its PID
#   D/staging/        MapReduce staging dir and job history (on fs.defaultFS); D/app-logs: aggregated logs
#   D/env.sh          `. D/env.sh` sets HADOOP_CONF_DIR, JAVA_HOME, PATH (D/bin), JVMREUSE_CLUSTER_DIR
#   D/bin/            client wrappers: hadoop, yarn, mapred, hdfs
#   D/cluster.env     the settings and ports of the running cluster (read by stop and status)
#
# Settings (environment; bin/jvmreuse-cluster sets them from its options):
#   JVMREUSE_HADOOP_VERSION   the Hadoop to run: 2.2.0 (default) or 3.5.0 (core/hadoop-version.sh);
#                             what its pools do not do yet stays stock, said at start
#                             (JVMREUSE_HADOOP_POOLED_AM, _MPI_SHUFFLE, _WARMUP: issue 31)
#   JVMREUSE_CLUSTER_DIR      the cluster dir D (default /tmp/jvmreuse-cluster-$EUID)
#   JVMREUSE_NODEMANAGERS     NodeManagers to run (default 2)
#   JVMREUSE_POOL             1: run containers in JVM Reuse pools (PoolContainerExecutor), one pool
#                             per NodeManager, all pools in one mpirun (pool.sh, JVMREUSE_POOLS=N);
#                             0 (default): stock DefaultContainerExecutor. A pool that does not come
#                             up is a loud warning: its NodeManager runs containers the stock way
#   JVMREUSE_MPI_SHUFFLE      1 (default): in pool mode, each pool manager also runs the MPI shuffle's
#                             Shuffle Manager (PoolMain --service org.jvmreuse.shuffle.server.ShuffleManager,
#                             class path: the MPI shuffle jar and Hadoop's jars, --service-opt
#                             conf-dir=D/nm<i>/conf), and the MPI shuffle jar (required: the version's,
#                             mpi-shuffle/target/mpi-shuffle-*.jar for 2.2, mpi-shuffle3/target/
#                             mpi-shuffle3-*.jar for 3.x) joins yarn.application.classpath, so reducers
#                             (in slots or stock containers) can load org.jvmreuse.shuffle.reduce.MpiShuffle;
#                             0 (--no-mpi-shuffle): neither. No effect without a pool
#   JVMREUSE_SLOTS            slots per pool (default: the NM's container limit, nm-memory / task-memory)
#   JVMREUSE_SLOT_HEAP        -Xmx of each pool JVM (default 512m)
#   JVMREUSE_SPARES           spare JVMs per pool, each taking the place of a slot that retires or
#                             dies (pool.sh; default 1 here: a cold spare costs about 64 MB)
#   JVMREUSE_NM_MEMORY        yarn.nodemanager.resource.memory-mb per NodeManager (default 2048)
#   JVMREUSE_TASK_MEMORY      mapreduce.{map,reduce}.memory.mb (default 512)
#   JVMREUSE_CLUSTER_JAVA     JDK (directory, or its bin/java) for daemons, tasks and pools
#                             (default: $JAVA_HOME, else the JDK of `java` on PATH)
#   JVMREUSE_HDFS             1: also run a NameNode and a DataNode, fs.defaultFS=hdfs://127.0.0.1:<port>;
#                             0 (default): fs.defaultFS=file:/// (a shared file system, as on Lustre sites)
#   JVMREUSE_DAEMON_HEAP      -Xmx of the Hadoop daemons (default 1000m, as Hadoop's scripts)
#   JVMREUSE_DAEMON_OPTS      more JVM options for the Hadoop daemons, split on spaces (default none)
#   JVMREUSE_HEARTBEAT_MS     the NodeManagers' heartbeat, ms (default 10 per NodeManager, at least 50)
#   JVMREUSE_UBER             1: small jobs run their tasks inside their AM (mapreduce.job.ubertask.enable;
#                             with --pool that AM is warm in a slot); default off, Hadoop's default
#   JVMREUSE_WAIT_WARMUP      1: "ready" waits until every pool slot has warmed up; 0 (default): until the
#                             daemons are up and every pool answers, while slots still warm up (the
#                             pools send containers the stock way until a slot is free)
#   JVMREUSE_CLUSTER_TIMEOUT  seconds to wait for the cluster to become healthy, its pools included
#                             (default 180)
#   JVMREUSE_STOP_TIMEOUT     seconds a daemon gets after SIGTERM before SIGKILL (default 10)
#   JVMREUSE_WARMUP_MAIN      what each pool slot runs before it serves (with JVMREUSE_WARMUP_CP, see
#                             pool.sh); default: hadoop-patch's TaskWarmup if its jar has it, with the
#                             executor's shared class path ("task" says the same); "none": no
#                             warm-up (the slots warm with their first tasks)
#   JVMREUSE_WARMUP_MAIN_RUNS  runs of it per slot (default 2); JVMREUSE_WARMUP_RUNS: runs of the
#                             pool's built-in warm-up before it (default 0 with a warm-up program,
#                             whose runs take the same run path; 20 with "none")
#   JVMREUSE_EXECUTOR_CLASS   the NodeManagers' container executor in pool mode
#                             (default: the Hadoop version's, core/hadoop-version.sh: 2.2's
#                             org.jvmreuse.hadoop.executor.PoolContainerExecutor, hadoop-patch; 3.x's
#                             org.jvmreuse.hadoop3.executor.PoolContainerExecutor, hadoop3-patch)
#   JVMREUSE_CONF_OVERRIDES, JVMREUSE_*_SITE_EXTRA, JVMREUSE_CAPACITY_SCHEDULER_EXTRA
#                             user template overrides and extra properties (hadoop-conf.sh)
#
# Speed settings (the same for pool and stock runs, so comparisons stay fair): NodeManager
# heartbeats every 50 ms on a few NodeManagers (JVMREUSE_HEARTBEAT_MS;
# yarn.resourcemanager.nodemanagers.heartbeat-interval-ms, default 1000), the MR AppMaster asks the
# RM for containers every 50 ms (yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms, default
# 1000), the job client polls progress every 50 ms (mapreduce.client.progressmonitor.pollinterval,
# default 1000), and daemons retry connecting to the RM every second (default 30 s).
# Also written: log aggregation on (container logs end up in D/app-logs when an application ends,
# so `yarn logs -applicationId ID` works), one CapacityScheduler queue with half the memory allowed
# for AppMasters, yarn.scheduler.maximum-allocation-mb = the NM memory (too big a request fails
# instead of waiting forever), no virtual-memory check. Everything listens on 127.0.0.1 except
# the ShuffleHandler, which Hadoop 2.2 binds to 0.0.0.0.

# shellcheck source=job-scripts/lib/core/core.sh
source "$(dirname "${BASH_SOURCE[0]}")/../core/core.sh"

_jvmreuse_cluster_log() { jvmreuse_log jvmreuse-cluster "$@"; }

# Seconds since the epoch with fractions (for the start-up time printed at the end).
_jvmreuse_now() { printf '%s' "${EPOCHREALTIME:-$(date +%s.%N)}"; }

# The settings, with their defaults (defaults.sh) applied.
_jvmreuse_cluster_settings() {
    jvmreuse_defaults_fill "${JVMREUSE_DEFAULTS[@]}" "${JVMREUSE_CLUSTER_DEFAULTS[@]}"
}

# Checks that the numeric settings are whole numbers in range and the dir is usable.
_jvmreuse_cluster_validate() {
    local name problem
    if ! problem=$(jvmreuse_settings_check); then
        _jvmreuse_cluster_log "ERROR: $problem"
        return 1
    fi
    for name in JVMREUSE_NODEMANAGERS JVMREUSE_CLUSTER_TIMEOUT; do
        if ! [[ ${!name} =~ ^[1-9][0-9]*$ ]]; then
            _jvmreuse_cluster_log "ERROR: $name must be a whole number >= 1 (got '${!name}')"
            return 1
        fi
    done
    if ((JVMREUSE_NODEMANAGERS > 100)); then
        _jvmreuse_cluster_log "ERROR: --nodemanagers ($JVMREUSE_NODEMANAGERS) must be at most 100 (each has its own ports in the cluster's block)"
        return 1
    fi
    if ((JVMREUSE_TASK_MEMORY > JVMREUSE_NM_MEMORY || JVMREUSE_NM_MEMORY < 1024)); then
        _jvmreuse_cluster_log "ERROR: --nm-memory ($JVMREUSE_NM_MEMORY MB) must be >= 1024 and >= --task-memory ($JVMREUSE_TASK_MEMORY MB): the AppMaster alone needs 768 MB"
        return 1
    fi
    if [[ $JVMREUSE_POOL == 1 && $JVMREUSE_HADOOP_POOL != 1 ]]; then
        _jvmreuse_cluster_log "ERROR: pool mode on Hadoop $JVMREUSE_HADOOP_VERSION is not built yet (issue 31, \"Hadoop 3\"):" \
            "start it without --pool (stock containers), or use --hadoop-version 2.2.0 for pools"
        return 1
    fi
    if [[ $JVMREUSE_POOL == 1 ]]; then
        for problem in "$(jvmreuse_hadoop_pool_limits)" "$(jvmreuse_slot_heap_warning)"; do
            [[ -z $problem ]] || _jvmreuse_cluster_log "$problem"
        done
    fi
    if [[ $JVMREUSE_CLUSTER_DIR =~ [[:space:]:,] ]]; then
        _jvmreuse_cluster_log "ERROR: the cluster dir '$JVMREUSE_CLUSTER_DIR' must not contain spaces, ':' or ',' (class paths and Hadoop lists split on them)"
        return 1
    fi
    jvmreuse_conf_check
}

# Applies the settings' defaults and makes JVMREUSE_CLUSTER_DIR absolute; $1: the repository.
# Enough for stop and status. With a second argument "start", the dir is created, the settings
# checked, the build checked and the JDK picked.
jvmreuse_cluster_init() {
    _jvmreuse_cluster_settings
    jvmreuse_hadoop_locate "$1"
    if [[ ${2:-} == start ]]; then
        _jvmreuse_cluster_validate || return 1
        mkdir -p "$JVMREUSE_CLUSTER_DIR" 2>/dev/null || true
    fi
    if [[ -d $JVMREUSE_CLUSTER_DIR ]]; then
        JVMREUSE_CLUSTER_DIR=$(cd "$JVMREUSE_CLUSTER_DIR" && pwd -P)
    elif [[ ${2:-} == start ]]; then
        _jvmreuse_cluster_log "ERROR: cannot create the cluster dir '$JVMREUSE_CLUSTER_DIR'"
        return 1
    fi
    export JVMREUSE_CLUSTER_DIR
    [[ ${2:-} == start ]] || return 0
    local jar
    for jar in "${JVMREUSE_HADOOP_JARS[@]}"; do
        if [[ ! -f $JVMREUSE_HADOOP_LIB/$jar ]]; then
            _jvmreuse_cluster_log "ERROR: the Hadoop $JVMREUSE_HADOOP_VERSION jars are not in $JVMREUSE_HADOOP_LIB ($jar is missing):" \
                "run job-scripts/setup.sh (or: mvn -B -q -pl $JVMREUSE_HADOOP_MODULE -am package -DskipTests)"
            return 1
        fi
    done
    jvmreuse_java_home || return 1
    export JVMREUSE_CLUSTER_JAVA_HOME
}

# ---------------------------------------------------------------------------------------------
# Ports

# Picks the cluster's block of ports (core/ports.sh, the scheme HPC jobs use: NodeManager i is
# node i; HDFS's DataNode takes node 1's DataNode ports), the first block tried at random so that
# clusters started one after the other do not meet a port in TIME_WAIT, and stores the ports in
# the associative array JVMREUSE_CLUSTER_PORTS (service name -> port; nm<i>* for NodeManager i).
_jvmreuse_cluster_pick_ports() {
    local name s i base
    if ! jvmreuse_port_block "$RANDOM$RANDOM" "$JVMREUSE_NODEMANAGERS"; then
        _jvmreuse_cluster_log "ERROR: found no free block of TCP ports in 20000-30599 (the last busy one: $JVMREUSE_PORT_BUSY)"
        return 1
    fi
    base=$JVMREUSE_PORT_BLOCK
    declare -gA JVMREUSE_CLUSTER_PORTS=([base]=$base)
    for name in "${JVMREUSE_MASTER_PORTS[@]}"; do
        JVMREUSE_CLUSTER_PORTS[$name]=$(jvmreuse_port "$base" "$name")
    done
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        JVMREUSE_CLUSTER_PORTS[nm$i]=$(jvmreuse_port "$base" nm "$i")
        for s in localizer web shuffle; do
            JVMREUSE_CLUSTER_PORTS[nm${i}_$s]=$(jvmreuse_port "$base" "nm_$s" "$i")
        done
    done
    for name in dn dn_http dn_ipc; do
        JVMREUSE_CLUSTER_PORTS[$name]=$(jvmreuse_port "$base" "$name" 1)
    done
}

# ---------------------------------------------------------------------------------------------
# Configuration files

# The values of the configuration templates (core/hadoop-conf.sh) for this cluster: every daemon
# listens on 127.0.0.1; one DataNode (HDFS) reads D/conf, so its properties go there too.
_jvmreuse_cluster_conf_values() {
    local d=$JVMREUSE_CLUSTER_DIR name
    local -A master_ports=()
    # shellcheck disable=SC2034 # read through a nameref by jvmreuse_conf_values
    for name in "${JVMREUSE_MASTER_PORTS[@]}" dn dn_http dn_ipc; do
        master_ports[$name]=${JVMREUSE_CLUSTER_PORTS[$name]}
    done
    jvmreuse_conf_values "$d" "$d/conf" 127.0.0.1 127.0.0.1 "$JVMREUSE_NODEMANAGERS" 8 768 512 master_ports
    JVMREUSE_CONF[NODE_NAME]=127.0.0.1
    JVMREUSE_CONF[DN_DATA_DIR]=$d/hdfs/data
}

# Writes D/conf (clients, RM, JHS, and the NameNode and DataNode).
_jvmreuse_cluster_write_conf() {
    _jvmreuse_cluster_conf_values
    jvmreuse_conf_write_shared "$JVMREUSE_CLUSTER_DIR/conf" datanode-properties.xml
}

# Writes D/nm<i>/conf for NodeManager $1: the shared files plus its own addresses and
# directories, its shuffle port (in mapred-site.xml: ShuffleHandler reads the job configuration's
# defaults, which load after yarn-site.xml) and, in pool mode, the pool container executor.
_jvmreuse_cluster_write_nm_conf() {
    local i=$1 nm=$JVMREUSE_CLUSTER_DIR/nm$1 s
    mkdir -p "$nm/local" "$nm/logs"
    JVMREUSE_CONF[NODE_INDEX]=$i
    JVMREUSE_CONF[NODE_LOCAL_DIR]=$nm/local
    JVMREUSE_CONF[NODE_LOG_DIR]=$nm/logs
    JVMREUSE_CONF[POOL_SOCKET]=$JVMREUSE_CLUSTER_DIR/pool$i/pool.sock
    JVMREUSE_CONF[PORT_NM]=${JVMREUSE_CLUSTER_PORTS[nm$i]}
    for s in localizer web shuffle; do
        JVMREUSE_CONF[PORT_NM_${s^^}]=${JVMREUSE_CLUSTER_PORTS[nm${i}_$s]}
    done
    jvmreuse_conf_write_node "$nm/conf"
}

# The slots of one pool: --slots if given, else the NodeManager's container limit.
_jvmreuse_cluster_slots() {
    printf '%s' "${JVMREUSE_SLOTS:-$((JVMREUSE_NM_MEMORY / JVMREUSE_TASK_MEMORY))}"
}

# Writes D/cluster.env: what stop and status need to know about the running cluster.
_jvmreuse_cluster_write_env_file() {
    local f=$JVMREUSE_CLUSTER_DIR/cluster.env name
    {
        printf '# written by jvmreuse-cluster start\n'
        printf 'CLUSTER_NODEMANAGERS=%q\nCLUSTER_POOL=%q\nCLUSTER_HDFS=%q\nCLUSTER_JAVA_HOME=%q\nCLUSTER_HADOOP_VERSION=%q\n' \
            "$JVMREUSE_NODEMANAGERS" "$JVMREUSE_POOL" "$JVMREUSE_HDFS" "$JVMREUSE_CLUSTER_JAVA_HOME" "$JVMREUSE_HADOOP_VERSION"
        printf 'CLUSTER_MPI_SHUFFLE=%q\n' "$(jvmreuse_mpi_shuffle_on && echo 1 || echo 0)"
        for name in "${!JVMREUSE_CLUSTER_PORTS[@]}"; do
            printf 'PORT_%s=%q\n' "$name" "${JVMREUSE_CLUSTER_PORTS[$name]}"
        done | sort
    } >"$f"
}


# ---------------------------------------------------------------------------------------------
# Processes

# Whether process $1 is alive and belongs to the cluster dir (its command line names it), so a
# stale pid file never makes us signal an unrelated process that reuses the PID.
_jvmreuse_cluster_place_owns() {
    local pid=$1 cmdline
    [[ $pid =~ ^[0-9]+$ ]] && _jvmreuse_alive "$pid" || return 1
    cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || return 1
    [[ $cmdline == *"$JVMREUSE_CLUSTER_DIR/"* ]]
}

# The daemon pid files of the cluster dir, and the pools' mpirun's, D/pools.pid (one per line).
_jvmreuse_cluster_pid_files() {
    local d=$JVMREUSE_CLUSTER_DIR
    find "$d/pids" -maxdepth 1 -name '*.pid' 2>/dev/null || true
    find "$d" -maxdepth 1 -name pools.pid 2>/dev/null || true
}

# Whether any daemon or pool of the cluster dir is alive.
jvmreuse_cluster_running() {
    local f
    while IFS= read -r f; do
        if _jvmreuse_cluster_place_owns "$(cat "$f" 2>/dev/null)"; then
            return 0
        fi
    done < <(_jvmreuse_cluster_pid_files)
    return 1
}

# ---------------------------------------------------------------------------------------------
# Start

# Makes the cluster dir ready for a start: refuses a dir that is not ours or still runs a cluster,
# then removes what an earlier start wrote (other files in it stay).
_jvmreuse_cluster_prepare_dir() {
    local d=$JVMREUSE_CLUSTER_DIR marker=$JVMREUSE_CLUSTER_DIR/.jvmreuse-cluster
    if [[ ! -f $marker && -n $(find "$d" -mindepth 1 -maxdepth 1 -print -quit) ]]; then
        _jvmreuse_cluster_log "ERROR: $d is not empty and was not made by jvmreuse-cluster; choose an empty or new --dir"
        return 1
    fi
    if jvmreuse_cluster_running; then
        _jvmreuse_cluster_log "ERROR: a cluster is already running in $d (pid files in $d/pids and $d/pools.pid);" \
            "stop it first: jvmreuse-cluster stop --dir $d"
        return 1
    fi
    touch "$marker"
    rm -rf "${d:?}/conf" "${d:?}/bin" "$d/pids" "$d/logs" "$d/tmp" "$d/staging" "$d/app-logs" "$d/hdfs" \
        "$d"/nm[0-9]* "$d"/pool[0-9]* "$d/pools.pid" "$d/pools.cmd" "$d/pools.exited" "$d/env.sh" "$d/cluster.env"
    mkdir -p "$d/logs" "$d/pids" "$d/tmp"
}

# The PoolMain options of the MPI shuffle (pool.sh's JVMREUSE_POOL_EXTRA_ARGS): each pool manager
# runs the Shuffle Manager, with Hadoop's jars and the conf dir of its NodeManager (%n: pool
# number = NodeManager number). None without the MPI shuffle.
_jvmreuse_cluster_pool_extra_args() {
    JVMREUSE_POOL_EXTRA_ARGS=()
    if jvmreuse_mpi_shuffle_on; then
        JVMREUSE_POOL_EXTRA_ARGS=(--service org.jvmreuse.shuffle.server.ShuffleManager
            --service-cp "$JVMREUSE_MPI_SHUFFLE_JAR:$JVMREUSE_HADOOP_LIB/*"
            --service-opt "conf-dir=$JVMREUSE_CLUSTER_DIR/nm%n/conf")
    fi
}

# ---------------------------------------------------------------------------------------------
# This machine as a place of the cluster engine (core/engine.sh): the master's daemons and N
# NodeManagers, each with its own dirs and ports, all run here; pool i (%n) serves NodeManager i
# at D/pool<i>/pool.sock (logs in D/pool<i>/logs), all pools ranks of one mpirun (D/pools.pid,
# its output D/logs/pools.log).

# Sets the engine's globals for the cluster dir (ports: from JVMREUSE_CLUSTER_PORTS if picked).
_jvmreuse_cluster_engine() {
    JVMREUSE_ENGINE_PLACE=_jvmreuse_cluster_place
    JVMREUSE_ENGINE_LOG=_jvmreuse_cluster_log
    JVMREUSE_ENGINE_MASTER=$JVMREUSE_CLUSTER_DIR
    JVMREUSE_ENGINE_ADDR=127.0.0.1
    JVMREUSE_ENGINE_NODES=$JVMREUSE_NODEMANAGERS
    JVMREUSE_ENGINE_POOLS_PID=$JVMREUSE_CLUSTER_DIR/pools.pid
    declare -gA JVMREUSE_ENGINE_PORTS=()
    local name
    declare -p JVMREUSE_CLUSTER_PORTS >/dev/null 2>&1 || return 0 # a stop needs no ports
    for name in rm_web jhs nn nn_http; do
        JVMREUSE_ENGINE_PORTS[$name]=${JVMREUSE_CLUSTER_PORTS[$name]:-}
    done
}

_jvmreuse_cluster_place_pool_launch() {
    local d=$JVMREUSE_CLUSTER_DIR i
    _jvmreuse_cluster_pool_extra_args
    jvmreuse_hadoop_slot_jvm_opts "$d/conf/mapred-site.xml"
    [[ -z $JVMREUSE_HADOOP_SLOT_OPTS_WHY ]] || _jvmreuse_cluster_log "$JVMREUSE_HADOOP_SLOT_OPTS_WHY"
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        _jvmreuse_private_dir "$d/pool$i" || return 1
        mkdir -p "$d/pool$i/logs"
    done
    JVMREUSE_SOCKET="$d/pool%n/pool.sock" JVMREUSE_POOL_LOG_DIR="$d/pool%n/logs" JVMREUSE_POOLS=$JVMREUSE_NODEMANAGERS \
        JVMREUSE_SLOTS=$(_jvmreuse_cluster_slots) JVMREUSE_SPARES=${JVMREUSE_SPARES:-1} JVMREUSE_SLOT_HEAP=$JVMREUSE_SLOT_HEAP \
        JVMREUSE_JAVA=$JVMREUSE_CLUSTER_JAVA_HOME/bin/java JVMREUSE_NODES=1 JVMREUSE_JVM_OPTS="${JVMREUSE_JVM_OPTS:-} $JVMREUSE_HADOOP_SLOT_OPTS" \
        JVMREUSE_WARMUP_MAIN=$JVMREUSE_CLUSTER_WARMUP_MAIN JVMREUSE_WARMUP_CP=$JVMREUSE_CLUSTER_WARMUP_CP \
        JVMREUSE_WARMUP_MAIN_RUNS=${JVMREUSE_WARMUP_MAIN_RUNS:-2} \
        jvmreuse_pool_program || return 1
    jvmreuse_pool_mpirun
    JVMREUSE_ENGINE_POOL_CMD=("${JVMREUSE_POOL_MPIRUN[@]}" "${JVMREUSE_POOL_PROGRAM[@]}")
    _jvmreuse_cluster_log "starting the pools: ${JVMREUSE_ENGINE_POOL_CMD[*]}"
}

_jvmreuse_cluster_place_start_nodes() {
    local d=$JVMREUSE_CLUSTER_DIR i
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        jvmreuse_start_nodemanager "$d" "nodemanager$i" "$d/nm$i/conf" "$d/conf"
    done
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        jvmreuse_start_datanode "$d" "$d/conf" "$d"
    fi
}

# The pool of NodeManager $1, asked on its socket.
_jvmreuse_cluster_place_pool_state() {
    if [[ -z ${JVMREUSE_CLIENT:-} || ! -x $JVMREUSE_CLIENT ]]; then
        printf 'unknown (the jvmreuse client is not built)'
        return 1
    fi
    jvmreuse_engine_pool_state "$JVMREUSE_CLUSTER_DIR/pool$1/pool.sock"
}

# The NodeManagers and the DataNode live.
_jvmreuse_cluster_place_watch() {
    local f name
    for f in "$JVMREUSE_CLUSTER_DIR"/pids/nodemanager*.pid "$JVMREUSE_CLUSTER_DIR"/pids/datanode.pid; do
        [[ -f $f ]] || continue
        name=$(basename "$f" .pid)
        if ! _jvmreuse_alive "$(cat "$f")"; then
            jvmreuse_engine_failed "$name" "exited during start-up"
            return 1
        fi
    done
}

_jvmreuse_cluster_place_stop_nodes() {
    local pids=()
    mapfile -t pids < <(jvmreuse_engine_pids "$JVMREUSE_CLUSTER_DIR"/pids/nodemanager*.pid)
    jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" _jvmreuse_cluster_log ${pids[@]+"${pids[@]}"}
}

_jvmreuse_cluster_place_node_pids() {
    jvmreuse_engine_pids "$JVMREUSE_CLUSTER_DIR"/pids/nodemanager*.pid "$JVMREUSE_CLUSTER_DIR"/pids/datanode.pid
}

_jvmreuse_cluster_place_sockets() {
    local s
    for s in "$JVMREUSE_CLUSTER_DIR"/pool[0-9]*/pool.sock; do
        [[ ! -S $s ]] || printf '%s\n' "$s"
    done
}

# The cluster's leftovers: this user's processes whose command line names D or a path in it, or
# whose working directory is in a NodeManager's dirs (task containers: YARN starts them with
# setsid, and a NodeManager killed hard leaves them behind).
_jvmreuse_cluster_place_marks() {
    local nm
    JVMREUSE_ENGINE_MARKS=("arg:$JVMREUSE_CLUSTER_DIR")
    for nm in "$JVMREUSE_CLUSTER_DIR"/nm[0-9]*; do
        [[ ! -d $nm ]] || JVMREUSE_ENGINE_MARKS+=("cwd:$nm")
    done
}

# Says what is being started.
_jvmreuse_cluster_describe() {
    local containers=stock fs=file:///
    if [[ $JVMREUSE_POOL == 1 ]]; then
        containers="in pools of $(_jvmreuse_cluster_slots) slots (heap $JVMREUSE_SLOT_HEAP), one per NodeManager, all in one mpirun"
        if jvmreuse_mpi_shuffle_on; then
            containers+=", MPI shuffle on"
        else
            containers+=", MPI shuffle off"
        fi
        jvmreuse_warmup
        if [[ -n $JVMREUSE_CLUSTER_WARMUP_MAIN ]]; then
            containers+=", slots warmed up with $JVMREUSE_CLUSTER_WARMUP_MAIN"
        fi
    fi
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        fs=hdfs://127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nn]}
    fi
    _jvmreuse_cluster_log "starting Hadoop $JVMREUSE_HADOOP_VERSION in $JVMREUSE_CLUSTER_DIR: $JVMREUSE_NODEMANAGERS NodeManagers x $JVMREUSE_NM_MEMORY MB," \
        "tasks $JVMREUSE_TASK_MEMORY MB, containers $containers; fs $fs; java $JVMREUSE_CLUSTER_JAVA_HOME"
}

# Starts the cluster in JVMREUSE_CLUSTER_DIR (after jvmreuse_cluster_init <repo> start). Returns 1,
# with everything it started stopped again, when the cluster does not become healthy.
jvmreuse_cluster_start() {
    local d=$JVMREUSE_CLUSTER_DIR t0 i
    t0=$(_jvmreuse_now)
    if [[ $JVMREUSE_POOL == 1 ]]; then
        jvmreuse_load_build "$JVMREUSE_REPO" || return 1
        if [[ -z $JVMREUSE_PATCH_JAR || -z $JVMREUSE_EXECUTOR_JAR ]]; then
            _jvmreuse_cluster_log "ERROR: --pool needs the hadoop-patch jar (hadoop-patch/target/hadoop-patch-*.jar)" \
                "and Hadoop $JVMREUSE_HADOOP_VERSION's executor jar ($JVMREUSE_HADOOP_EXECUTOR_MODULE/target/$JVMREUSE_HADOOP_EXECUTOR_MODULE-*.jar): run job-scripts/setup.sh"
            return 1
        fi
        if jvmreuse_mpi_shuffle_on && [[ -z $JVMREUSE_MPI_SHUFFLE_JAR ]]; then
            _jvmreuse_cluster_log "ERROR: the MPI shuffle (on by default with --pool) needs Hadoop $JVMREUSE_HADOOP_VERSION's MPI shuffle jar" \
                "($JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE/target/$JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE-*.jar), which is missing: run job-scripts/setup.sh" \
                "(or turn the MPI shuffle off: --no-mpi-shuffle, JVMREUSE_MPI_SHUFFLE=0)"
            return 1
        fi
        for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
            if (( ${#d} + ${#i} + 15 > 107 )); then
                _jvmreuse_cluster_log "ERROR: the pool socket path $d/pool$i/pool.sock is longer than a Unix socket allows (107 bytes): choose a shorter --dir"
                return 1
            fi
        done
    fi
    _jvmreuse_cluster_prepare_dir || return 1
    _jvmreuse_cluster_pick_ports || return 1
    _jvmreuse_cluster_write_conf || return 1
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        _jvmreuse_cluster_write_nm_conf "$i" || return 1
    done
    _jvmreuse_cluster_write_env_file
    jvmreuse_write_clients "$JVMREUSE_CLUSTER_DIR"
    _jvmreuse_cluster_describe
    _jvmreuse_cluster_engine
    JVMREUSE_ENGINE_DEADLINE=$(($(date +%s) + JVMREUSE_CLUSTER_TIMEOUT))
    if ! jvmreuse_engine_start; then
        _jvmreuse_cluster_log "start failed; stopping what was started (logs stay in $d/logs)"
        jvmreuse_cluster_stop
        return 1
    fi
    _jvmreuse_cluster_log "ready in $(awk -v a="$t0" -v b="$(_jvmreuse_now)" 'BEGIN { printf "%.1f", b - a }') s:" \
        "RM http://127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_web]}, JobHistory http://127.0.0.1:${JVMREUSE_CLUSTER_PORTS[jhs_web]}"
    _jvmreuse_cluster_log "  use it: . $d/env.sh   (then: hadoop jar ..., yarn application -list, mapred job -status ID)"
}

# ---------------------------------------------------------------------------------------------
# Stop

# Stops everything of the cluster in JVMREUSE_CLUSTER_DIR by PID (the engine's teardown):
# NodeManagers first, then the JobHistoryServer and ResourceManager, the pools (each asked, then
# mpirun), HDFS, and finally leftover task processes.
jvmreuse_cluster_stop() {
    local d=$JVMREUSE_CLUSTER_DIR
    # The client asks each pool to stop; without a build, mpirun is stopped by PID alone.
    jvmreuse_load_build "$JVMREUSE_REPO" >/dev/null 2>&1 || JVMREUSE_CLIENT=
    _jvmreuse_cluster_engine
    jvmreuse_engine_stop graceful
    rm -f "$d"/pids/*.pid "$d/pools.pid"
}

# ---------------------------------------------------------------------------------------------
# Status

# Prints the cluster's daemons (PID, alive or not), pools and ports; returns 1 if nothing runs.
jvmreuse_cluster_status() {
    local d=$JVMREUSE_CLUSTER_DIR running=1
    if [[ ! -f $d/cluster.env ]]; then
        printf 'no cluster in %s\n' "$d"
        return 1
    fi
    if ! jvmreuse_cluster_running; then
        printf 'cluster %s: not running\n' "$d"
        return 1
    fi
    # shellcheck source=/dev/null
    source "$d/cluster.env"
    printf 'cluster %s: Hadoop %s, %s NodeManagers, pool %s, mpi shuffle %s, hdfs %s, java %s\n' "$d" \
        "${CLUSTER_HADOOP_VERSION:-2.2.0}" "$CLUSTER_NODEMANAGERS" \
        "$( ((CLUSTER_POOL == 1)) && echo yes || echo no)" "$( ((${CLUSTER_MPI_SHUFFLE:-0} == 1)) && echo yes || echo no)" \
        "$( ((CLUSTER_HDFS == 1)) && echo yes || echo no)" "$CLUSTER_JAVA_HOME"
    # D/pools.pid is the pools' mpirun
    if jvmreuse_pid_file_states _jvmreuse_cluster_place_owns 18 < <(_jvmreuse_cluster_pid_files | sort); then
        running=0
    fi
    if ((CLUSTER_POOL == 1)); then
        local i
        jvmreuse_load_build "$JVMREUSE_REPO" >/dev/null 2>&1 || true
        for ((i = 1; i <= CLUSTER_NODEMANAGERS; i++)); do
            printf '  %-18s %s\n' "pool$i" "$(_jvmreuse_cluster_place_pool_state "$i" || true)"
        done
    fi
    # shellcheck disable=SC2154 # PORT_* come from cluster.env
    printf '  ResourceManager  http://127.0.0.1:%s   JobHistory http://127.0.0.1:%s\n' "$PORT_rm_web" "$PORT_jhs_web"
    local metrics
    if metrics=$(curl -sf --max-time 2 "http://127.0.0.1:$PORT_rm_web/ws/v1/cluster/metrics" 2>/dev/null) &&
        [[ $metrics =~ \"activeNodes\":([0-9]+) ]]; then
        printf '  active NodeManagers (RM): %s\n' "${BASH_REMATCH[1]}"
    fi
    printf '  environment: . %s/env.sh\n' "$d"
    return "$running"
}
