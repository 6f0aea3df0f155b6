# shellcheck shell=bash source-path=SCRIPTDIR
#
# local-cluster.sh -- a real one-machine Hadoop 2.2 cluster (ResourceManager, JobHistoryServer,
# N NodeManagers, optionally HDFS and one JVM Reuse pool per NodeManager, all N pools ranks of ONE
# mpirun, so that they share one MPI world, with the MPI shuffle's Shuffle Manager in each pool
# manager), run from the jars that the build copies to hadoop-patch/target/hadoop/lib (no Hadoop
# tarball). Sourced by bin/jvmreuse-cluster and by test scripts; the caller uses `set -euo pipefail`.
#
#   jvmreuse_cluster_init <repo> [start]   defaults; JVMREUSE_CLUSTER_DIR made absolute; with "start":
#                                   checks settings and build, picks the JDK (JVMREUSE_CLUSTER_JAVA_HOME)
#   jvmreuse_cluster_start          writes configs, starts everything, waits until it is healthy;
#                                   on failure stops what it started and returns 1
#   jvmreuse_cluster_stop           stops everything in the cluster dir by PID, then sweeps leftovers
#   jvmreuse_cluster_status         prints the daemons, their PIDs, ports and the RM's node count
#   jvmreuse_cluster_running        whether any daemon of the cluster dir is alive
#
# Layout of the cluster dir D (only these entries are (re)created by a start; other files stay):
#   D/conf/           client, RM and JHS configuration (HADOOP_CONF_DIR for jobs)
#   D/nm<i>/conf/     NodeManager i's configuration; D/nm<i>/local, D/nm<i>/logs: its local and log dirs
#   D/pool<i>/        pool i's socket (pool.sock) and logs (pool mode); pool i serves NodeManager i
#   D/pools.pid       the PID of the one mpirun that runs all pools (pool mode); its output: D/logs/pools.log
#   D/logs/<daemon>.log   stdout/stderr of each daemon; D/pids/<daemon>.pid its PID
#   D/staging/        MapReduce staging dir and job history (on fs.defaultFS); D/app-logs: aggregated logs
#   D/env.sh          `. D/env.sh` sets HADOOP_CONF_DIR, JAVA_HOME, PATH (D/bin), JVMREUSE_CLUSTER_DIR
#   D/bin/            client wrappers: hadoop, yarn, mapred, hdfs
#   D/cluster.env     the settings and ports of the running cluster (read by stop and status)
#
# Settings (environment; bin/jvmreuse-cluster sets them from its options):
#   JVMREUSE_CLUSTER_DIR      the cluster dir D (default /tmp/jvmreuse-cluster-$EUID)
#   JVMREUSE_NODEMANAGERS     NodeManagers to run (default 2)
#   JVMREUSE_POOL             1: run containers in JVM Reuse pools (PoolContainerExecutor), one pool
#                             per NodeManager, all pools in one mpirun (pool.sh, JVMREUSE_POOLS=N);
#                             0 (default): stock DefaultContainerExecutor. A pool that does not come
#                             up is a loud warning: its NodeManager runs containers the stock way
#   JVMREUSE_MPI_SHUFFLE      1 (default): in pool mode, each pool manager also runs the MPI shuffle's
#                             Shuffle Manager (PoolMain --service org.jvmreuse.shuffle.server.ShuffleManager,
#                             class path: the mpi-shuffle jar and Hadoop's jars, --service-opt
#                             conf-dir=D/nm<i>/conf), and the mpi-shuffle jar (mpi-shuffle/target/
#                             mpi-shuffle-*.jar, required) joins yarn.application.classpath, so reducers
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
#   JVMREUSE_HEARTBEAT_MS     the NodeManagers' heartbeat, ms (default 100: 10 per NodeManager, at least 100)
#   JVMREUSE_UBER             1: small jobs run their tasks inside their AM (mapreduce.job.ubertask.enable;
#                             with --pool that AM is warm in a slot); default off, Hadoop's default
#   JVMREUSE_WAIT_WARMUP      1: "ready" waits until every pool slot has warmed up; 0 (default): until the
#                             daemons are up and every pool answers, while slots still warm up (the
#                             pools send containers the stock way until a slot is free)
#   JVMREUSE_CLUSTER_TIMEOUT  seconds to wait for the cluster to become healthy (default 180; also
#                             the pools' JVMREUSE_START_TIMEOUT unless that is set)
#   JVMREUSE_STOP_TIMEOUT     seconds a daemon gets after SIGTERM before SIGKILL (default 10)
#   JVMREUSE_WARMUP_MAIN      what each pool slot runs before it serves (with JVMREUSE_WARMUP_CP, see
#                             pool.sh); default: hadoop-patch's TaskWarmup if its jar has it, with the
#                             executor's shared class path; "none": no warm-up
#   JVMREUSE_WARMUP_MAIN_RUNS  runs of it per slot (default 5); JVMREUSE_WARMUP_RUNS: runs of the
#                             pool's built-in warm-up before it (default 20 here)
#   JVMREUSE_EXECUTOR_CLASS   the NodeManagers' container executor in pool mode
#                             (default org.jvmreuse.hadoop.executor.PoolContainerExecutor, hadoop-patch)
#   JVMREUSE_CONF_OVERRIDES, JVMREUSE_*_SITE_EXTRA, JVMREUSE_CAPACITY_SCHEDULER_EXTRA
#                             user template overrides and extra properties (hadoop-conf.sh)
#
# Speed settings (the same for pool and stock runs, so comparisons stay fair): NodeManager
# heartbeats every 300 ms (yarn.resourcemanager.nodemanagers.heartbeat-interval-ms, default 1000),
# the MR AppMaster asks the RM for containers every 300 ms
# (yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms, default 1000), the job client polls
# progress every 300 ms (mapreduce.client.progressmonitor.pollinterval, default 1000), and daemons
# retry connecting to the RM every second (default 30 s).
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
    if ((JVMREUSE_TASK_MEMORY > JVMREUSE_NM_MEMORY || JVMREUSE_NM_MEMORY < 1024)); then
        _jvmreuse_cluster_log "ERROR: --nm-memory ($JVMREUSE_NM_MEMORY MB) must be >= 1024 and >= --task-memory ($JVMREUSE_TASK_MEMORY MB): the AppMaster alone needs 768 MB"
        return 1
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
    if [[ ! -f $JVMREUSE_HADOOP_LIB/hadoop-yarn-server-nodemanager-2.2.0.jar || ! -f $JVMREUSE_HADOOP_LIB/hadoop-mapreduce-client-hs-2.2.0.jar ]]; then
        _jvmreuse_cluster_log "ERROR: the Hadoop 2.2 jars are not in $JVMREUSE_HADOOP_LIB: run job-scripts/setup.sh" \
            "(or: mvn -B -q -pl hadoop-patch -am package -DskipTests)"
        return 1
    fi
    jvmreuse_java_home || return 1
    export JVMREUSE_CLUSTER_JAVA_HOME
}

# ---------------------------------------------------------------------------------------------
# Ports

# Picks free ports for every service and stores them in the associative array
# JVMREUSE_CLUSTER_PORTS (service name -> port). Ports come from 20000-31999, below Linux's
# ephemeral range, at random, so clusters started one after the other do not meet a port in
# TIME_WAIT; a port is only taken when nothing on the host uses it.
_jvmreuse_cluster_pick_ports() {
    local names=(rm rm_scheduler rm_tracker rm_admin rm_web jhs jhs_web) name port i used=" "
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        names+=("nm${i}" "nm${i}_localizer" "nm${i}_web" "nm${i}_shuffle")
    done
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        names+=(nn nn_http dn dn_http dn_ipc)
    fi
    declare -gA JVMREUSE_CLUSTER_PORTS=()
    for name in "${names[@]}"; do
        if ! port=$(jvmreuse_free_port 20000 12000 "$used"); then
            _jvmreuse_cluster_log "ERROR: found no free TCP port in 20000-31999"
            return 1
        fi
        used+="$port "
        JVMREUSE_CLUSTER_PORTS[$name]=$port
    done
}

# ---------------------------------------------------------------------------------------------
# Configuration files

# The values of the configuration templates (core/hadoop-conf.sh) for this cluster: every daemon
# listens on 127.0.0.1; one DataNode (HDFS) reads D/conf, so its properties go there too.
_jvmreuse_cluster_conf_values() {
    local d=$JVMREUSE_CLUSTER_DIR name
    local -A master_ports=([nn]='')
    # shellcheck disable=SC2034 # read through a nameref by jvmreuse_conf_values
    for name in "${!JVMREUSE_CLUSTER_PORTS[@]}"; do
        [[ $name == nm[0-9]* ]] || master_ports[$name]=${JVMREUSE_CLUSTER_PORTS[$name]}
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
        printf 'CLUSTER_NODEMANAGERS=%q\nCLUSTER_POOL=%q\nCLUSTER_HDFS=%q\nCLUSTER_JAVA_HOME=%q\n' \
            "$JVMREUSE_NODEMANAGERS" "$JVMREUSE_POOL" "$JVMREUSE_HDFS" "$JVMREUSE_CLUSTER_JAVA_HOME"
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
_jvmreuse_cluster_owns() {
    local pid=$1 cmdline
    [[ $pid =~ ^[0-9]+$ ]] && _jvmreuse_alive "$pid" || return 1
    cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || return 1
    [[ $cmdline == *"$JVMREUSE_CLUSTER_DIR/"* ]]
}

# The daemon pid files of the cluster dir, and the pools' mpirun's, D/pools.pid (one per line;
# also D/pool<i>/pool.pid, left by a cluster started when each pool had its own mpirun).
_jvmreuse_cluster_pid_files() {
    local d=$JVMREUSE_CLUSTER_DIR
    find "$d/pids" -maxdepth 1 -name '*.pid' 2>/dev/null || true
    find "$d" -maxdepth 1 -name pools.pid 2>/dev/null || true
    find "$d" -mindepth 2 -maxdepth 2 -path "$d/pool*/pool.pid" 2>/dev/null || true
}

# Whether any daemon or pool of the cluster dir is alive.
jvmreuse_cluster_running() {
    local f
    while IFS= read -r f; do
        if _jvmreuse_cluster_owns "$(cat "$f" 2>/dev/null)"; then
            return 0
        fi
    done < <(_jvmreuse_cluster_pid_files)
    return 1
}

# Reports that daemon $1 failed ($2: why) with the end of its log.
_jvmreuse_cluster_daemon_failed() {
    local log=$JVMREUSE_CLUSTER_DIR/logs/$1.log
    _jvmreuse_cluster_log "ERROR: $1 $2; the end of $log:"
    tail -n 25 "$log" 2>/dev/null | sed 's/^/    /' >&2 || true
}

# Returns 1 (after reporting) if any daemon in D/pids is no longer alive.
_jvmreuse_cluster_check_alive() {
    local f name
    for f in "$JVMREUSE_CLUSTER_DIR"/pids/*.pid; do
        [[ -f $f ]] || continue
        name=$(basename "$f" .pid)
        if ! _jvmreuse_alive "$(cat "$f")"; then
            _jvmreuse_cluster_daemon_failed "$name" "exited during start-up"
            return 1
        fi
    done
}

# Waits until the command "$@" succeeds, checking every 0.2 s that all daemons live, at most
# until the start deadline. $1: what is awaited (for the error) and the daemon whose log to show.
_jvmreuse_cluster_wait_for() {
    local what=$1 daemon=$2
    shift 2
    until "$@"; do
        _jvmreuse_cluster_check_alive || return 1
        if (($(date +%s) >= JVMREUSE_CLUSTER_DEADLINE)); then
            _jvmreuse_cluster_daemon_failed "$daemon" "did not become ready ($what) within ${JVMREUSE_CLUSTER_TIMEOUT}s"
            return 1
        fi
        sleep 0.2
    done
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
        "$d"/nm[0-9]* "$d"/pool[0-9]* "$d/pools.pid" "$d/env.sh" "$d/cluster.env"
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

# Starts the pools of all NodeManagers in the background, as ranks of one mpirun: pool i (%n)
# serves NodeManager i at D/pool<i>/pool.sock, logs in D/pool<i>/logs; mpirun's PID goes to
# D/pools.pid, its output to D/logs/pools.log. Sets JVMREUSE_CLUSTER_POOL_JOB to the PID of the
# background job (pool.sh's jvmreuse_pool_start: status 0 all pools ready, 2 some, 1 none).
_jvmreuse_cluster_start_pools() {
    local d=$JVMREUSE_CLUSTER_DIR
    _jvmreuse_cluster_pool_extra_args
    JVMREUSE_SOCKET="$d/pool%n/pool.sock" JVMREUSE_POOL_LOG_DIR="$d/pool%n/logs" JVMREUSE_POOLS=$JVMREUSE_NODEMANAGERS \
        JVMREUSE_POOL_PID_FILE=$d/pools.pid JVMREUSE_POOL_MPIRUN_LOG=$d/logs/pools.log \
        JVMREUSE_SLOTS=$(_jvmreuse_cluster_slots) JVMREUSE_SPARES=${JVMREUSE_SPARES:-1} JVMREUSE_SLOT_HEAP=$JVMREUSE_SLOT_HEAP \
        JVMREUSE_JAVA=$JVMREUSE_CLUSTER_JAVA_HOME/bin/java JVMREUSE_NODES=1 JVMREUSE_POOL_PID='' \
        JVMREUSE_WARMUP_MAIN=$JVMREUSE_CLUSTER_WARMUP_MAIN JVMREUSE_WARMUP_CP=$JVMREUSE_CLUSTER_WARMUP_CP \
        JVMREUSE_WARMUP_MAIN_RUNS=${JVMREUSE_WARMUP_MAIN_RUNS:-5} JVMREUSE_WARMUP_RUNS=${JVMREUSE_WARMUP_RUNS:-20} \
        JVMREUSE_START_TIMEOUT=${JVMREUSE_START_TIMEOUT:-$JVMREUSE_CLUSTER_TIMEOUT} \
        JVMREUSE_POOL_READY=$( ((JVMREUSE_WAIT_WARMUP == 1)) && echo warm || echo answer) \
        jvmreuse_pool_start &
    JVMREUSE_CLUSTER_POOL_JOB=$!
}

# Ends the pool start-up still under way in this shell (a failed or interrupted cluster start), so
# that no pool comes up after the stop; its mpirun, if launched, has its pid file already.
_jvmreuse_cluster_abort_pool_starts() {
    local pid=${JVMREUSE_CLUSTER_POOL_JOB:-}
    JVMREUSE_CLUSTER_POOL_JOB=
    [[ -n $pid ]] || return 0
    if _jvmreuse_alive "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

# One line on the pool of NodeManager $1 (D/pool<i>/pool.sock), and whether it serves: status
# 0 when it answers, serves and has a free slot (and all its slots started), or, with
# JVMREUSE_WAIT_WARMUP=0, when it answers and serves while slots still warm up.
_jvmreuse_cluster_pool_state() {
    local sock=$JVMREUSE_CLUSTER_DIR/pool$1/pool.sock status slots runs state
    if [[ -z ${JVMREUSE_CLIENT:-} || ! -x $JVMREUSE_CLIENT ]]; then
        printf 'unknown (the jvmreuse client is not built)'
        return 1
    fi
    if ! status=$(jvmreuse_pool_status_json "$sock"); then
        printf 'NOT SERVING (no answer on %s): nodemanager%s runs containers the stock way' "$sock" "$1"
        return 1
    fi
    slots=$(jvmreuse_status_slots "$status")
    runs=$(printf 'completed %s, running %s, queued %s, fallbacks %s' "$(jvmreuse_status_field "$status" runs_completed)" \
        "$(jvmreuse_status_field "$status" running)" "$(jvmreuse_status_field "$status" queued)" \
        "$(jvmreuse_status_field "$status" fallbacks)")
    state=$(jvmreuse_status_field "$status" state)
    if [[ $state == serving && $(jvmreuse_status_field "$status" starting) != 0 && $JVMREUSE_WAIT_WARMUP == 0 ]]; then
        printf 'serving, slots %s (warming up: while no started slot is free, containers go the stock way), runs %s' "$slots" "$runs"
        return 0
    fi
    if [[ $state != serving || $(jvmreuse_status_field "$status" starting) != 0 || $(jvmreuse_status_field "$status" free) == 0 ]]; then
        printf 'NOT SERVING (%s; slots %s): nodemanager%s runs containers the stock way' "$state" "$slots" "$1"
        return 1
    fi
    printf 'serving, slots %s, runs %s' "$slots" "$runs"
}

# Waits for the pool start-up begun by _jvmreuse_cluster_start_pools, then checks each pool: one
# that does not serve is a loud warning, not an error (its NodeManager's executor falls back to
# stock container launches).
_jvmreuse_cluster_wait_pools() {
    local i status=0 state down=() states=()
    [[ -n ${JVMREUSE_CLUSTER_POOL_JOB:-} ]] || return 0
    wait "$JVMREUSE_CLUSTER_POOL_JOB" || status=$?
    JVMREUSE_CLUSTER_POOL_JOB= # reaped: its PID may be reused now
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        if ! state=$(_jvmreuse_cluster_pool_state "$i"); then
            down+=("$i")
            states+=("$state")
        elif [[ $state == *"warming up"* ]]; then
            _jvmreuse_cluster_log "pool $i: $state"
        fi
    done
    if ((${#down[@]} > 0)); then
        _jvmreuse_cluster_log "WARNING: ================================================================"
        for i in "${!down[@]}"; do
            _jvmreuse_cluster_log "WARNING: pool ${down[i]} (for nodemanager${down[i]}) did NOT start: its containers run the STOCK way"
            _jvmreuse_cluster_log "WARNING:   pool ${down[i]}: ${states[i]}"
        done
        _jvmreuse_cluster_log "WARNING: (fresh JVMs). See the messages above, $JVMREUSE_CLUSTER_DIR/logs/pools.log"
        _jvmreuse_cluster_log "WARNING: and $JVMREUSE_CLUSTER_DIR/pool<i>/logs/ (pool start-up status $status)."
        _jvmreuse_cluster_log "WARNING: ================================================================"
    fi
}

# Formats HDFS and starts the NameNode and the DataNode; waits for the NameNode's RPC port.
_jvmreuse_cluster_start_hdfs() {
    local d=$JVMREUSE_CLUSTER_DIR
    jvmreuse_hdfs_webapps "$d"
    if ! jvmreuse_hdfs_format "$d" "$d/conf"; then
        _jvmreuse_cluster_daemon_failed namenode-format "failed (HDFS could not be formatted)"
        return 1
    fi
    jvmreuse_start_namenode "$d" "$d/conf"
    jvmreuse_start_datanode "$d" "$d/conf" "$d"
    _jvmreuse_cluster_wait_for "NameNode RPC port ${JVMREUSE_CLUSTER_PORTS[nn]}" namenode \
        jvmreuse_port_open "${JVMREUSE_CLUSTER_PORTS[nn]}"
}

# Starts the whole cluster and waits until it is healthy: HDFS first (optional; the JHS creates
# its directories there), then at once the pools (pool mode: one mpirun, in the background), RM, JHS and the
# NodeManagers: a NodeManager retries registering every second until the RM listens, and starting
# them together takes about 6 s instead of 10 s on 2 cores. Ready means: the RM reports N active
# NodeManagers, the JHS answers on its port, the DataNode is live (HDFS) and every pool has
# finished starting (a pool that did not come up is a warning, see _jvmreuse_cluster_wait_pools).
_jvmreuse_cluster_start_all() {
    local d=$JVMREUSE_CLUSTER_DIR i
    JVMREUSE_CLUSTER_DEADLINE=$(($(date +%s) + JVMREUSE_CLUSTER_TIMEOUT))
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_cluster_start_hdfs || return 1
    fi
    JVMREUSE_CLUSTER_POOL_JOB=
    if [[ $JVMREUSE_POOL == 1 ]]; then
        jvmreuse_warmup
        _jvmreuse_cluster_start_pools
    fi
    jvmreuse_start_resourcemanager "$d" "$d/conf"
    jvmreuse_start_historyserver "$d" "$d/conf"
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        jvmreuse_start_nodemanager "$d" "nodemanager$i" "$d/nm$i/conf" "$d/conf"
    done
    _jvmreuse_cluster_wait_for "$JVMREUSE_NODEMANAGERS active NodeManagers" resourcemanager \
        jvmreuse_rm_has_nodes "127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_web]}" "$JVMREUSE_NODEMANAGERS" || return 1
    _jvmreuse_cluster_wait_for "port ${JVMREUSE_CLUSTER_PORTS[jhs]}" historyserver jvmreuse_port_open "${JVMREUSE_CLUSTER_PORTS[jhs]}" || return 1
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_cluster_wait_for "a live DataNode" datanode jvmreuse_nn_has_datanode "127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nn_http]}" || return 1
    fi
    _jvmreuse_cluster_wait_pools
    _jvmreuse_cluster_check_alive
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
    _jvmreuse_cluster_log "starting in $JVMREUSE_CLUSTER_DIR: $JVMREUSE_NODEMANAGERS NodeManagers x $JVMREUSE_NM_MEMORY MB," \
        "tasks $JVMREUSE_TASK_MEMORY MB, containers $containers; fs $fs; java $JVMREUSE_CLUSTER_JAVA_HOME"
}

# Starts the cluster in JVMREUSE_CLUSTER_DIR (after jvmreuse_cluster_init <repo> start). Returns 1,
# with everything it started stopped again, when the cluster does not become healthy.
jvmreuse_cluster_start() {
    local d=$JVMREUSE_CLUSTER_DIR t0 i
    t0=$(_jvmreuse_now)
    if [[ $JVMREUSE_POOL == 1 ]]; then
        jvmreuse_load_build "$JVMREUSE_REPO" || return 1
        if [[ -z $JVMREUSE_PATCH_JAR ]]; then
            _jvmreuse_cluster_log "ERROR: --pool needs the hadoop-patch jar (hadoop-patch/target/hadoop-patch-*.jar): run job-scripts/setup.sh"
            return 1
        fi
        if jvmreuse_mpi_shuffle_on && [[ -z $JVMREUSE_MPI_SHUFFLE_JAR ]]; then
            _jvmreuse_cluster_log "ERROR: the MPI shuffle (on by default with --pool) needs the mpi-shuffle jar" \
                "(mpi-shuffle/target/mpi-shuffle-*.jar), which is missing: run job-scripts/setup.sh" \
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
    if ! _jvmreuse_cluster_start_all; then
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

# Sends SIGTERM to the processes in the given pid files (only those of this cluster), waits up to
# JVMREUSE_STOP_TIMEOUT s for all of them, then SIGKILLs the survivors by PID. Removes the files.
_jvmreuse_cluster_stop_pids() {
    jvmreuse_stop_pid_files "$JVMREUSE_STOP_TIMEOUT" _jvmreuse_cluster_log _jvmreuse_cluster_owns "$@"
}

# Stops the pools' mpirun (D/pools.pid) with jvmreuse_pool_stop (every pool asked to stop, then
# mpirun by PID), or by PID alone if the client is missing. Also stops pools that an earlier
# version started with one mpirun each (D/pool<i>/pool.pid).
_jvmreuse_cluster_stop_pools() {
    local d=$JVMREUSE_CLUSTER_DIR dir n=0 i can_ask=0
    if (jvmreuse_load_build "$JVMREUSE_REPO") >/dev/null 2>&1; then
        can_ask=1
    fi
    for dir in "$d"/pool[0-9]*; do
        i=${dir##*/pool}
        if [[ -d $dir && $i =~ ^[0-9]+$ ]] && ((i > n)); then
            n=$i
        fi
    done
    if [[ -f $d/pools.pid ]]; then
        if ((can_ask && n > 0)); then
            (
                jvmreuse_load_build "$JVMREUSE_REPO"
                JVMREUSE_SOCKET="$d/pool%n/pool.sock" JVMREUSE_POOLS=$n JVMREUSE_POOL_PID_FILE=$d/pools.pid \
                    JVMREUSE_POOL_PID='' jvmreuse_pool_stop now
            ) || true
        fi
        _jvmreuse_cluster_stop_pids "$d/pools.pid"
    fi
    for dir in "$d"/pool[0-9]*; do
        [[ -f $dir/pool.pid ]] || continue
        if ((can_ask)); then
            (
                jvmreuse_load_build "$JVMREUSE_REPO"
                JVMREUSE_SOCKET=$dir/pool.sock JVMREUSE_POOLS=1 JVMREUSE_POOL_PID_FILE='' JVMREUSE_POOL_PID='' \
                    jvmreuse_pool_stop now
            ) || true
        fi
        _jvmreuse_cluster_stop_pids "$dir/pool.pid"
    done
}

# Ends the leftover processes of the cluster by PID (SIGTERM, up to 3 s, SIGKILL): this user's
# processes whose command line names D or a path in it, or whose working directory is in a
# NodeManager's dirs (task containers: YARN starts them with setsid, and a NodeManager killed
# hard leaves them behind). Never this shell, its ancestors, or processes in its session (the
# caller, its pipeline, its terminal): processes.sh's jvmreuse_sweep.
_jvmreuse_cluster_sweep() {
    local d=$JVMREUSE_CLUSTER_DIR nm marks=()
    marks=("arg:$d")
    for nm in "$d"/nm[0-9]*; do
        [[ ! -d $nm ]] || marks+=("cwd:$nm")
    done
    jvmreuse_sweep 3 _jvmreuse_cluster_log "$d" "${marks[@]}"
}

# Stops everything of the cluster in JVMREUSE_CLUSTER_DIR by PID: NodeManagers first, then the
# JobHistoryServer and ResourceManager, the pools, HDFS, and finally leftover task processes.
jvmreuse_cluster_stop() {
    local d=$JVMREUSE_CLUSTER_DIR
    _jvmreuse_cluster_abort_pool_starts
    _jvmreuse_cluster_stop_pids "$d"/pids/nodemanager*.pid
    _jvmreuse_cluster_stop_pids "$d/pids/historyserver.pid" "$d/pids/resourcemanager.pid"
    _jvmreuse_cluster_stop_pools
    _jvmreuse_cluster_stop_pids "$d/pids/datanode.pid"
    _jvmreuse_cluster_stop_pids "$d/pids/namenode.pid"
    _jvmreuse_cluster_stop_pids "$d"/pids/*.pid
    _jvmreuse_cluster_sweep
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
    printf 'cluster %s: %s NodeManagers, pool %s, mpi shuffle %s, hdfs %s, java %s\n' "$d" "$CLUSTER_NODEMANAGERS" \
        "$( ((CLUSTER_POOL == 1)) && echo yes || echo no)" "$( ((${CLUSTER_MPI_SHUFFLE:-0} == 1)) && echo yes || echo no)" \
        "$( ((CLUSTER_HDFS == 1)) && echo yes || echo no)" "$CLUSTER_JAVA_HOME"
    # D/pools.pid is the pools' mpirun
    if jvmreuse_pid_file_states _jvmreuse_cluster_owns 18 < <(_jvmreuse_cluster_pid_files | sort); then
        running=0
    fi
    if ((CLUSTER_POOL == 1)); then
        local i
        jvmreuse_load_build "$JVMREUSE_REPO" >/dev/null 2>&1 || true
        for ((i = 1; i <= CLUSTER_NODEMANAGERS; i++)); do
            printf '  %-18s %s\n' "pool$i" "$(_jvmreuse_cluster_pool_state "$i" || true)"
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
