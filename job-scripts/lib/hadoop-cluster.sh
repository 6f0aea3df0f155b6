# shellcheck shell=bash source-path=SCRIPTDIR
#
# hadoop-cluster.sh -- a real one-machine Hadoop 2.2 cluster (ResourceManager, JobHistoryServer,
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

# shellcheck source=pool.sh
source "$(dirname "${BASH_SOURCE[0]}")/pool.sh"

_jvmreuse_cluster_log() { printf '[jvmreuse-cluster] %s\n' "$*" >&2; }

# Seconds since the epoch with fractions (for the start-up time printed at the end).
_jvmreuse_now() { printf '%s' "${EPOCHREALTIME:-$(date +%s.%N)}"; }

# The settings, with their defaults applied.
_jvmreuse_cluster_settings() {
    JVMREUSE_CLUSTER_DIR=${JVMREUSE_CLUSTER_DIR:-/tmp/jvmreuse-cluster-$EUID}
    JVMREUSE_NODEMANAGERS=${JVMREUSE_NODEMANAGERS:-2}
    JVMREUSE_POOL=${JVMREUSE_POOL:-0}
    JVMREUSE_MPI_SHUFFLE=${JVMREUSE_MPI_SHUFFLE:-1}
    JVMREUSE_SLOT_HEAP=${JVMREUSE_SLOT_HEAP:-512m}
    JVMREUSE_NM_MEMORY=${JVMREUSE_NM_MEMORY:-2048}
    JVMREUSE_TASK_MEMORY=${JVMREUSE_TASK_MEMORY:-512}
    JVMREUSE_HDFS=${JVMREUSE_HDFS:-0}
    JVMREUSE_DAEMON_HEAP=${JVMREUSE_DAEMON_HEAP:-1000m}
    JVMREUSE_CLUSTER_TIMEOUT=${JVMREUSE_CLUSTER_TIMEOUT:-180}
    JVMREUSE_STOP_TIMEOUT=${JVMREUSE_STOP_TIMEOUT:-10}
    JVMREUSE_EXECUTOR_CLASS=${JVMREUSE_EXECUTOR_CLASS:-org.jvmreuse.hadoop.executor.PoolContainerExecutor}
}

# Checks that the numeric settings are whole numbers in range and the dir is usable.
_jvmreuse_cluster_validate() {
    local name
    for name in JVMREUSE_NODEMANAGERS JVMREUSE_NM_MEMORY JVMREUSE_TASK_MEMORY JVMREUSE_CLUSTER_TIMEOUT JVMREUSE_STOP_TIMEOUT; do
        if ! [[ ${!name} =~ ^[1-9][0-9]*$ ]]; then
            _jvmreuse_cluster_log "ERROR: $name must be a whole number >= 1 (got '${!name}')"
            return 1
        fi
    done
    if [[ $JVMREUSE_MPI_SHUFFLE != [01] ]]; then
        _jvmreuse_cluster_log "ERROR: JVMREUSE_MPI_SHUFFLE must be 0 or 1 (got '$JVMREUSE_MPI_SHUFFLE')"
        return 1
    fi
    if [[ -n ${JVMREUSE_SLOTS:-} && ! $JVMREUSE_SLOTS =~ ^[1-9][0-9]*$ ]]; then
        _jvmreuse_cluster_log "ERROR: JVMREUSE_SLOTS (--slots) must be a whole number >= 1 (got '$JVMREUSE_SLOTS')"
        return 1
    fi
    if ((JVMREUSE_TASK_MEMORY > JVMREUSE_NM_MEMORY || JVMREUSE_NM_MEMORY < 1024)); then
        _jvmreuse_cluster_log "ERROR: --nm-memory ($JVMREUSE_NM_MEMORY MB) must be >= 1024 and >= --task-memory ($JVMREUSE_TASK_MEMORY MB): the AppMaster alone needs 768 MB"
        return 1
    fi
    if [[ $JVMREUSE_CLUSTER_DIR =~ [[:space:]:,] ]]; then
        _jvmreuse_cluster_log "ERROR: the cluster dir '$JVMREUSE_CLUSTER_DIR' must not contain spaces, ':' or ',' (class paths and Hadoop lists split on them)"
        return 1
    fi
}

# Picks the JDK: JVMREUSE_CLUSTER_JAVA (a JDK directory or a java binary), else JAVA_HOME, else
# the JDK of `java` on PATH (symlinks resolved, e.g. Debian's /usr/lib/jvm/java-17-openjdk-amd64).
# Sets JVMREUSE_CLUSTER_JAVA_HOME and JVMREUSE_JAVA_MAJOR.
jvmreuse_cluster_java_home() {
    local j=${JVMREUSE_CLUSTER_JAVA:-${JAVA_HOME:-}} home
    if [[ -z $j ]]; then
        j=$(command -v java) || { _jvmreuse_cluster_log "ERROR: no java: set JAVA_HOME or give --java"; return 1; }
    fi
    if [[ -d $j ]]; then
        home=$(cd "$j" && pwd -P)
    elif [[ -x $j ]]; then
        home=$(dirname "$(dirname "$(readlink -f "$j")")")
    else
        _jvmreuse_cluster_log "ERROR: '$j' is neither a JDK directory nor a java executable"
        return 1
    fi
    if [[ ! -x $home/bin/java ]]; then
        _jvmreuse_cluster_log "ERROR: $home/bin/java does not exist: '$j' is not a JDK"
        return 1
    fi
    JVMREUSE_CLUSTER_JAVA_HOME=$home
    JVMREUSE_JAVA_MAJOR=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' "$home/release" 2>/dev/null || true)
    if [[ -z $JVMREUSE_JAVA_MAJOR ]]; then
        JVMREUSE_JAVA_MAJOR=$("$home/bin/java" -XshowSettings:properties -version 2>&1 |
            sed -n 's/^ *java.specification.version = \(1\.\)\{0,1\}\([0-9]*\).*/\2/p')
    fi
}

# The JVM options a Hadoop 2.2 web app (RM, NM, JHS, MR AppMaster) needs on Java 9+ (Guice 3/cglib).
_jvmreuse_webapp_opts() {
    if [[ ${JVMREUSE_JAVA_MAJOR:-17} -ge 9 ]]; then
        printf '%s' '--add-opens java.base/java.lang=ALL-UNNAMED'
    fi
}

# yarn.app.mapreduce.am.command-opts with a heap of $1 MB. The AppMaster's temporary files (its
# web app's Jetty work dir) go to its container's tmp dir, which YARN deletes with the container,
# as Hadoop does for tasks; Hadoop 2.2 leaves them in /tmp otherwise, one dir per job.
_jvmreuse_am_opts() {
    # shellcheck disable=SC2016 # $PWD is the container's, expanded by its launch script
    printf -- '-Xmx%sm -Djava.io.tmpdir=$PWD/tmp %s' "$1" "$(_jvmreuse_webapp_opts)"
}

# Applies the settings' defaults and makes JVMREUSE_CLUSTER_DIR absolute; $1: the repository.
# Enough for stop and status. With a second argument "start", the dir is created, the settings
# checked, the build checked and the JDK picked.
jvmreuse_cluster_init() {
    JVMREUSE_REPO=$1
    _jvmreuse_cluster_settings
    JVMREUSE_HADOOP_LIB=$JVMREUSE_REPO/hadoop-patch/target/hadoop/lib
    JVMREUSE_PATCH_JAR=$(find "$JVMREUSE_REPO/hadoop-patch/target" -maxdepth 1 -name 'hadoop-patch-*.jar' \
        ! -name '*-sources.jar' ! -name '*-tests.jar' 2>/dev/null | head -n 1)
    JVMREUSE_MPI_SHUFFLE_JAR=$(find "$JVMREUSE_REPO/mpi-shuffle/target" -maxdepth 1 -name 'mpi-shuffle-*.jar' \
        ! -name '*-sources.jar' ! -name '*-tests.jar' 2>/dev/null | head -n 1)
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
    export JVMREUSE_REPO JVMREUSE_CLUSTER_DIR JVMREUSE_HADOOP_LIB JVMREUSE_PATCH_JAR JVMREUSE_MPI_SHUFFLE_JAR
    [[ ${2:-} == start ]] || return 0
    if [[ ! -f $JVMREUSE_HADOOP_LIB/hadoop-yarn-server-nodemanager-2.2.0.jar || ! -f $JVMREUSE_HADOOP_LIB/hadoop-mapreduce-client-hs-2.2.0.jar ]]; then
        _jvmreuse_cluster_log "ERROR: the Hadoop 2.2 jars are not in $JVMREUSE_HADOOP_LIB: run job-scripts/setup.sh" \
            "(or: mvn -B -q -pl hadoop-patch -am package -DskipTests)"
        return 1
    fi
    jvmreuse_cluster_java_home || return 1
    if [[ ${JVMREUSE_JAVA_MAJOR:-0} -ge 23 ]]; then
        _jvmreuse_cluster_log "WARNING: Hadoop 2.2 does not run on Java $JVMREUSE_JAVA_MAJOR: UserGroupInformation calls" \
            "Subject.getSubject, which throws UnsupportedOperationException from Java 23 on; use Java 17 (--java)"
    fi
    export JVMREUSE_CLUSTER_JAVA_HOME
}

# ---------------------------------------------------------------------------------------------
# Ports

# Whether something uses TCP port $1 on this host (listening, connected or in TIME_WAIT).
_jvmreuse_port_busy() {
    if command -v ss >/dev/null 2>&1; then
        [[ -n $(ss -Htan "( sport = :$1 )" 2>/dev/null) ]]
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
    fi
}

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
        for ((i = 0; ; i++)); do
            port=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
            if [[ $used != *" $port "* ]] && ! _jvmreuse_port_busy "$port"; then
                break
            fi
            if ((i > 1000)); then
                _jvmreuse_cluster_log "ERROR: found no free TCP port in 20000-31999"
                return 1
            fi
        done
        used+="$port "
        JVMREUSE_CLUSTER_PORTS[$name]=$port
    done
}

# Whether 127.0.0.1:$1 accepts connections.
_jvmreuse_port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# ---------------------------------------------------------------------------------------------
# Configuration files

# Writes a Hadoop configuration file $1 from NAME=VALUE arguments (values XML-escaped).
_jvmreuse_xml() {
    local file=$1 kv name value
    shift
    {
        printf '<?xml version="1.0"?>\n<!-- written by jvmreuse-cluster at start; changes are lost at the next start -->\n<configuration>\n'
        for kv in "$@"; do
            name=${kv%%=*}
            value=${kv#*=}
            value=${value//&/"&amp;"}
            value=${value//</"&lt;"}
            value=${value//>/"&gt;"}
            printf '  <property><name>%s</name><value>%s</value></property>\n' "$name" "$value"
        done
        printf '</configuration>\n'
    } >"$file"
}

# log4j 1.2 configuration for daemons and clients: everything to the console (stderr), which the
# daemons' redirection sends to D/logs/<daemon>.log. Tasks use the NodeManager's
# container-log4j.properties instead.
_jvmreuse_log4j_properties() {
    cat <<'LOG4J'
# written by jvmreuse-cluster
hadoop.root.logger=INFO,console
log4j.rootLogger=${hadoop.root.logger}
log4j.threshold=ALL
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
LOG4J
}

# The core-site.xml properties.
_jvmreuse_core_props() {
    local d=$JVMREUSE_CLUSTER_DIR fs=file:///
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        fs=hdfs://127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nn]}
    fi
    JVMREUSE_PROPS=("fs.defaultFS=$fs" "hadoop.tmp.dir=$d/tmp/hadoop")
}

# Whether the cluster runs the MPI shuffle: pool mode with JVMREUSE_MPI_SHUFFLE=1.
_jvmreuse_cluster_mpi_shuffle() {
    [[ $JVMREUSE_POOL == 1 && $JVMREUSE_MPI_SHUFFLE == 1 ]]
}

# The jars of yarn.application.classpath (after the conf dir): Hadoop's, and the mpi-shuffle jar
# with the MPI shuffle (its reduce-side plug-in), and the hadoop-patch jar (the task launch
# counters, docs/hadoop.md), comma-separated. The PoolContainerExecutor shares these jars in the slots.
_jvmreuse_cluster_app_jars() {
    printf '%s' "$JVMREUSE_HADOOP_LIB/*"
    [[ -z ${JVMREUSE_PATCH_JAR:-} ]] || printf ',%s' "$JVMREUSE_PATCH_JAR"
    if _jvmreuse_cluster_mpi_shuffle; then
        printf ',%s' "$JVMREUSE_MPI_SHUFFLE_JAR"
    fi
}

# The yarn-site.xml properties every daemon and client shares.
_jvmreuse_yarn_props() {
    local d=$JVMREUSE_CLUSTER_DIR
    JVMREUSE_PROPS=(
        "yarn.resourcemanager.hostname=127.0.0.1"
        "yarn.resourcemanager.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm]}"
        "yarn.resourcemanager.scheduler.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_scheduler]}"
        "yarn.resourcemanager.resource-tracker.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_tracker]}"
        "yarn.resourcemanager.admin.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_admin]}"
        "yarn.resourcemanager.webapp.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_web]}"
        "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms=300"
        "yarn.resourcemanager.connect.retry-interval.ms=1000"
        "yarn.nodemanager.resourcemanager.connect.retry_interval.secs=1"
        "yarn.scheduler.minimum-allocation-mb=256"
        "yarn.scheduler.maximum-allocation-mb=$JVMREUSE_NM_MEMORY"
        "yarn.nodemanager.resource.memory-mb=$JVMREUSE_NM_MEMORY"
        "yarn.nodemanager.vmem-check-enabled=false"
        "yarn.nodemanager.aux-services=mapreduce_shuffle"
        "yarn.nodemanager.aux-services.mapreduce_shuffle.class=org.apache.hadoop.mapred.ShuffleHandler"
        "yarn.application.classpath=$d/conf,$(_jvmreuse_cluster_app_jars)"
        "yarn.log-aggregation-enable=true"
        "yarn.nodemanager.remote-app-log-dir=$d/app-logs"
    )
}

# The mapred-site.xml properties every daemon and client shares.
_jvmreuse_mapred_props() {
    local d=$JVMREUSE_CLUSTER_DIR am_opts
    am_opts=$(_jvmreuse_am_opts 512)
    JVMREUSE_PROPS=(
        "mapreduce.framework.name=yarn"
        "yarn.app.mapreduce.am.staging-dir=$d/staging"
        "mapreduce.jobhistory.intermediate-done-dir=$d/staging/history/done_intermediate"
        "mapreduce.jobhistory.done-dir=$d/staging/history/done"
        "mapreduce.jobhistory.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[jhs]}"
        "mapreduce.jobhistory.webapp.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[jhs_web]}"
        "yarn.app.mapreduce.am.command-opts=${am_opts% }"
        "yarn.app.mapreduce.am.resource.mb=768"
        "mapreduce.map.memory.mb=$JVMREUSE_TASK_MEMORY"
        "mapreduce.reduce.memory.mb=$JVMREUSE_TASK_MEMORY"
        "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms=300"
        "mapreduce.client.progressmonitor.pollinterval=300"
    )
    [[ -z ${JVMREUSE_PATCH_JAR:-} ]] || JVMREUSE_PROPS+=("rpc.engine.org.apache.hadoop.mapred.TaskUmbilicalProtocol=org.jvmreuse.hadoop.counters.TaskLaunchCountingEngine")
}

# The hdfs-site.xml properties (one NameNode, one DataNode, replication 1).
_jvmreuse_hdfs_props() {
    local d=$JVMREUSE_CLUSTER_DIR
    JVMREUSE_PROPS=(
        "dfs.namenode.name.dir=file://$d/hdfs/name"
        "dfs.datanode.data.dir=file://$d/hdfs/data"
        "dfs.replication=1"
        "dfs.permissions.enabled=false"
        "dfs.namenode.safemode.extension=0"
        "dfs.heartbeat.interval=1"
        "dfs.namenode.http-address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nn_http]}"
        "dfs.namenode.secondary.http-address=127.0.0.1:0"
        "dfs.datanode.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[dn]}"
        "dfs.datanode.http.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[dn_http]}"
        "dfs.datanode.ipc.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[dn_ipc]}"
    )
}

# The CapacityScheduler's queues (Hadoop's tarball ships this file; the jars do not): one queue
# with the whole cluster. Half the memory may go to AppMasters so a few jobs can run at once on
# this small cluster (Hadoop's default 10% would hold back the second job).
_jvmreuse_capacity_props() {
    JVMREUSE_PROPS=(
        "yarn.scheduler.capacity.root.queues=default"
        "yarn.scheduler.capacity.root.default.capacity=100"
        "yarn.scheduler.capacity.root.default.maximum-capacity=100"
        "yarn.scheduler.capacity.maximum-am-resource-percent=0.5"
    )
}

# The slots of one pool: --slots if given, else the NodeManager's container limit.
_jvmreuse_cluster_slots() {
    printf '%s' "${JVMREUSE_SLOTS:-$((JVMREUSE_NM_MEMORY / JVMREUSE_TASK_MEMORY))}"
}

# Writes D/conf (clients, RM, JHS).
_jvmreuse_cluster_write_conf() {
    local c=$JVMREUSE_CLUSTER_DIR/conf
    mkdir -p "$c"
    _jvmreuse_core_props && _jvmreuse_xml "$c/core-site.xml" "${JVMREUSE_PROPS[@]}"
    _jvmreuse_yarn_props && _jvmreuse_xml "$c/yarn-site.xml" "${JVMREUSE_PROPS[@]}"
    _jvmreuse_mapred_props && _jvmreuse_xml "$c/mapred-site.xml" "${JVMREUSE_PROPS[@]}"
    _jvmreuse_capacity_props && _jvmreuse_xml "$c/capacity-scheduler.xml" "${JVMREUSE_PROPS[@]}"
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_hdfs_props && _jvmreuse_xml "$c/hdfs-site.xml" "${JVMREUSE_PROPS[@]}"
    fi
    _jvmreuse_log4j_properties >"$c/log4j.properties"
}

# Writes D/nm<i>/conf for NodeManager $1: the shared files plus its own addresses and
# directories, its shuffle port (in mapred-site.xml: ShuffleHandler reads the job configuration's
# defaults, which load after yarn-site.xml) and, in pool mode, the pool container executor.
_jvmreuse_cluster_write_nm_conf() {
    local i=$1 d=$JVMREUSE_CLUSTER_DIR nm
    nm=$d/nm$i
    mkdir -p "$nm/conf" "$nm/local" "$nm/logs"
    cp "$d/conf/core-site.xml" "$d/conf/log4j.properties" "$nm/conf/"
    if [[ -f $d/conf/hdfs-site.xml ]]; then
        cp "$d/conf/hdfs-site.xml" "$nm/conf/"
    fi
    _jvmreuse_yarn_props
    JVMREUSE_PROPS+=(
        "yarn.nodemanager.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nm$i]}"
        "yarn.nodemanager.localizer.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nm${i}_localizer]}"
        "yarn.nodemanager.webapp.address=127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nm${i}_web]}"
        "yarn.nodemanager.local-dirs=$nm/local"
        "yarn.nodemanager.log-dirs=$nm/logs"
    )
    if [[ $JVMREUSE_POOL == 1 ]]; then
        JVMREUSE_PROPS+=(
            "yarn.nodemanager.container-executor.class=$JVMREUSE_EXECUTOR_CLASS"
            "jvmreuse.pool.socket=$d/pool$i/pool.sock"
            "jvmreuse.pool.client=$JVMREUSE_CLIENT"
            "jvmreuse.pool.slot-heap=$JVMREUSE_SLOT_HEAP"
        )
    fi
    _jvmreuse_xml "$nm/conf/yarn-site.xml" "${JVMREUSE_PROPS[@]}"
    _jvmreuse_mapred_props
    JVMREUSE_PROPS+=("mapreduce.shuffle.port=${JVMREUSE_CLUSTER_PORTS[nm${i}_shuffle]}")
    _jvmreuse_xml "$nm/conf/mapred-site.xml" "${JVMREUSE_PROPS[@]}"
}

# HttpServer looks up webapps/<name> on the class path; hadoop-hdfs-2.2.0.jar from Maven Central
# has none (the tarball has them under share/hadoop/hdfs/webapps). Empty ones do: the NameNode and
# DataNode add their servlets (/jmx among them) in code.
_jvmreuse_cluster_hdfs_webapps() {
    local w=$JVMREUSE_CLUSTER_DIR/hdfs/webapps-root/webapps name
    for name in hdfs datanode secondary; do
        mkdir -p "$w/$name/WEB-INF"
        printf '<?xml version="1.0"?>\n<web-app xmlns="http://java.sun.com/xml/ns/javaee" version="2.5"/>\n' >"$w/$name/WEB-INF/web.xml"
    done
}

# Writes D/cluster.env: what stop and status need to know about the running cluster.
_jvmreuse_cluster_write_env_file() {
    local f=$JVMREUSE_CLUSTER_DIR/cluster.env name
    {
        printf '# written by jvmreuse-cluster start\n'
        printf 'CLUSTER_NODEMANAGERS=%q\nCLUSTER_POOL=%q\nCLUSTER_HDFS=%q\nCLUSTER_JAVA_HOME=%q\n' \
            "$JVMREUSE_NODEMANAGERS" "$JVMREUSE_POOL" "$JVMREUSE_HDFS" "$JVMREUSE_CLUSTER_JAVA_HOME"
        printf 'CLUSTER_MPI_SHUFFLE=%q\n' "$(_jvmreuse_cluster_mpi_shuffle && echo 1 || echo 0)"
        for name in "${!JVMREUSE_CLUSTER_PORTS[@]}"; do
            printf 'PORT_%s=%q\n' "$name" "${JVMREUSE_CLUSTER_PORTS[$name]}"
        done | sort
    } >"$f"
}

# Writes D/env.sh and the client wrappers D/bin/{hadoop,yarn,mapred,hdfs} (one script, dispatching
# on its name). Clients need no --add-opens.
_jvmreuse_cluster_write_client() {
    local d=$JVMREUSE_CLUSTER_DIR
    mkdir -p "$d/bin"
    {
        printf '# . %s/env.sh -- the environment of jobs on the jvmreuse one-machine cluster\n' "$d"
        printf 'export HADOOP_CONF_DIR=%q\n' "$d/conf"
        printf 'export YARN_CONF_DIR=%q\n' "$d/conf"
        printf 'export JAVA_HOME=%q\n' "$JVMREUSE_CLUSTER_JAVA_HOME"
        printf 'export JVMREUSE_CLUSTER_DIR=%q\n' "$d"
        # shellcheck disable=SC2016 # $PATH is expanded when env.sh is sourced
        printf 'export PATH=%q:"$PATH"\n' "$d/bin"
    } >"$d/env.sh"
    {
        printf '#!/usr/bin/env bash\n'
        printf '# hadoop/yarn/mapred/hdfs client of the jvmreuse cluster in %s (written at its start).\n' "$d"
        printf 'set -euo pipefail\n'
        printf 'cluster=%q\nlib=%q\npatch=%q\njava=%q\n' "$d" "$JVMREUSE_HADOOP_LIB" "${JVMREUSE_PATCH_JAR:-}" "$JVMREUSE_CLUSTER_JAVA_HOME/bin/java"
        cat <<'CLIENT'
conf=${HADOOP_CONF_DIR:-$cluster/conf}
cp="$conf:$lib/*${patch:+:$patch}${HADOOP_CLASSPATH:+:$HADOOP_CLASSPATH}" # patch: the TaskLaunches counters' display names
read -r -a client_opts <<<"${HADOOP_CLIENT_OPTS:-}"
tool=$(basename "$0")

run() {
    local class=$1
    shift
    exec "$java" -Xmx1000m -Djava.net.preferIPv4Stack=true -Djava.io.tmpdir="${TMPDIR:-/tmp}" \
        -Dhadoop.log.dir="$cluster/logs" -Dhadoop.log.file=client.log \
        -Dhadoop.root.logger="${HADOOP_ROOT_LOGGER:-INFO,console}" \
        ${client_opts[@]+"${client_opts[@]}"} -cp "$cp" "$class" "$@"
}

usage() {
    case $tool in
        hadoop) echo "usage: hadoop jar JAR [MAINCLASS] ARGS | fs ARGS | version | classpath | CLASSNAME ARGS" ;;
        yarn) echo "usage: yarn application ARGS | node ARGS | logs ARGS | rmadmin ARGS | jar JAR ARGS | version | classpath | CLASSNAME ARGS" ;;
        mapred) echo "usage: mapred job ARGS | queue ARGS | classpath | CLASSNAME ARGS" ;;
        hdfs) echo "usage: hdfs dfs ARGS | dfsadmin ARGS | fsck ARGS | classpath | CLASSNAME ARGS" ;;
    esac
}

command=${1:-}
if [[ $# -gt 0 ]]; then
    shift
fi
case $tool:$command in
    *:classpath) printf '%s\n' "$cp" ;;
    hadoop:jar | yarn:jar) run org.apache.hadoop.util.RunJar "$@" ;;
    hadoop:fs | hadoop:dfs | hdfs:dfs) run org.apache.hadoop.fs.FsShell "$@" ;;
    hadoop:version | yarn:version) run org.apache.hadoop.util.VersionInfo "$@" ;;
    yarn:application) run org.apache.hadoop.yarn.client.cli.ApplicationCLI "$@" ;;
    yarn:node) run org.apache.hadoop.yarn.client.cli.NodeCLI "$@" ;;
    yarn:logs) run org.apache.hadoop.yarn.client.cli.LogsCLI "$@" ;;
    yarn:rmadmin) run org.apache.hadoop.yarn.client.cli.RMAdminCLI "$@" ;;
    mapred:job) run org.apache.hadoop.mapred.JobClient "$@" ;;
    mapred:queue) run org.apache.hadoop.mapred.JobQueueClient "$@" ;;
    hdfs:dfsadmin) run org.apache.hadoop.hdfs.tools.DFSAdmin "$@" ;;
    hdfs:fsck) run org.apache.hadoop.hdfs.tools.DFSck "$@" ;;
    *:-h | *:--help | *:help) usage ;;
    *:) usage >&2; exit 1 ;;
    *)
        if [[ $command =~ ^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$ ]]; then
            run "$command" "$@"
        fi
        printf '%s: unknown command %s\n' "$tool" "$command" >&2
        usage >&2
        exit 1
        ;;
esac
CLIENT
    } >"$d/bin/hadoop-client"
    chmod +x "$d/bin/hadoop-client"
    local tool
    for tool in hadoop yarn mapred hdfs; do
        ln -sfn hadoop-client "$d/bin/$tool"
    done
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

# Starts daemon $1 in the background, in its own session, stdout/stderr to D/logs/$1.log, its PID
# in D/pids/$1.pid. $2: class path (conf dir first); $3: main class; then JVM options, `--`,
# program arguments.
_jvmreuse_cluster_daemon() {
    local name=$1 cp=$2 class=$3 d=$JVMREUSE_CLUSTER_DIR opts=() args=() launcher=()
    shift 3
    while [[ $# -gt 0 ]]; do
        if [[ $1 == -- ]]; then
            shift
            args=("$@")
            break
        fi
        opts+=("$1")
        shift
    done
    mkdir -p "$d/tmp/$name" "$d/logs" "$d/pids"
    # Without job control a background job is no process group leader, so setsid execs in place
    # and $! is java's PID. (With job control, as in an interactive shell that sourced this file,
    # the job gets its own process group anyway, and setsid would fork.)
    if [[ $- != *m* ]] && command -v setsid >/dev/null 2>&1; then
        launcher=(setsid)
    fi
    ${launcher[@]+"${launcher[@]}"} "$JVMREUSE_CLUSTER_JAVA_HOME/bin/java" "-Xmx$JVMREUSE_DAEMON_HEAP" \
        ${opts[@]+"${opts[@]}"} -Djava.net.preferIPv4Stack=true -Djava.io.tmpdir="$d/tmp/$name" \
        -Dhadoop.log.dir="$d/logs" -Dyarn.log.dir="$d/logs" -Dhadoop.log.file="$name.log" \
        -Dyarn.log.file="$name.log" -Dhadoop.home.dir="$(dirname "$JVMREUSE_HADOOP_LIB")" \
        -Dhadoop.root.logger=INFO,console -Dyarn.root.logger=INFO,console -Dhadoop.id.str="$name" \
        -cp "$cp" "$class" ${args[@]+"${args[@]}"} </dev/null >"$d/logs/$name.log" 2>&1 &
    printf '%s\n' "$!" >"$d/pids/$name.pid"
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

# Whether the RM reports $1 active NodeManagers (REST API on its web port).
_jvmreuse_rm_has_nodes() {
    local metrics
    metrics=$(curl -sf --max-time 2 "http://127.0.0.1:${JVMREUSE_CLUSTER_PORTS[rm_web]}/ws/v1/cluster/metrics" 2>/dev/null) || return 1
    [[ $metrics =~ \"activeNodes\":([0-9]+) ]] && ((BASH_REMATCH[1] >= $1))
}

# Whether the NameNode reports a live DataNode (its /jmx servlet).
_jvmreuse_nn_has_datanode() {
    local jmx
    jmx=$(curl -sf --max-time 2 "http://127.0.0.1:${JVMREUSE_CLUSTER_PORTS[nn_http]}/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState" 2>/dev/null) || return 1
    [[ $jmx =~ \"NumLiveDataNodes\"\ *:\ *([0-9]+) ]] && ((BASH_REMATCH[1] >= 1))
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

# The class path of the Hadoop daemons (after their conf dir).
_jvmreuse_hadoop_cp() { printf '%s' "$JVMREUSE_HADOOP_LIB/*"; }

# Sets JVMREUSE_CLUSTER_WARMUP_MAIN/_CP, the program each slot runs before it serves (pool.sh's
# JVMREUSE_WARMUP_MAIN/_CP): by default hadoop-patch's TaskWarmup, if its jar has it, with the
# class path the PoolContainerExecutor shares for tasks (the application class path's jars, then
# the hadoop-patch jar; with the MPI shuffle the mpi-shuffle jar is one of the application class
# path's), so the warmed-up classes are the ones tasks reuse. JVMREUSE_WARMUP_MAIN
# set in the environment wins; JVMREUSE_WARMUP_MAIN=none turns the warm-up off.
_jvmreuse_cluster_warmup() {
    local class=org.jvmreuse.hadoop.warmup.TaskWarmup
    JVMREUSE_CLUSTER_WARMUP_MAIN=${JVMREUSE_WARMUP_MAIN:-}
    JVMREUSE_CLUSTER_WARMUP_CP=${JVMREUSE_WARMUP_CP:-}
    if [[ -z $JVMREUSE_CLUSTER_WARMUP_MAIN ]] && grep -aqF "${class//.//}.class" "$JVMREUSE_PATCH_JAR" 2>/dev/null; then
        JVMREUSE_CLUSTER_WARMUP_MAIN=$class
        JVMREUSE_CLUSTER_WARMUP_CP="$(_jvmreuse_cluster_app_jars | tr , :):$JVMREUSE_PATCH_JAR"
    elif [[ $JVMREUSE_CLUSTER_WARMUP_MAIN == none ]]; then
        JVMREUSE_CLUSTER_WARMUP_MAIN='' JVMREUSE_CLUSTER_WARMUP_CP=''
    fi
}

# The PoolMain options of the MPI shuffle (pool.sh's JVMREUSE_POOL_EXTRA_ARGS): each pool manager
# runs the Shuffle Manager, with Hadoop's jars and the conf dir of its NodeManager (%n: pool
# number = NodeManager number). None without the MPI shuffle.
_jvmreuse_cluster_pool_extra_args() {
    JVMREUSE_POOL_EXTRA_ARGS=()
    if _jvmreuse_cluster_mpi_shuffle; then
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
# 0 when it answers, serves and has a free slot (and all its slots started).
_jvmreuse_cluster_pool_state() {
    local sock=$JVMREUSE_CLUSTER_DIR/pool$1/pool.sock status slots runs
    if [[ -z ${JVMREUSE_CLIENT:-} || ! -x $JVMREUSE_CLIENT ]]; then
        printf 'unknown (the jvmreuse client is not built)'
        return 1
    fi
    if ! status=$("$JVMREUSE_CLIENT" --socket "$sock" status 2>/dev/null); then
        printf 'NOT SERVING (no answer on %s): nodemanager%s runs containers the stock way' "$sock" "$1"
        return 1
    fi
    slots=$(sed -n 's/^slots: //p' <<<"$status")
    runs=$(sed -n 's/^runs: //p' <<<"$status")
    if [[ $status != *': serving, '* || $status != *'starting 0,'* || $status == *'(free 0,'* ]]; then
        printf 'NOT SERVING (%s; slots %s): nodemanager%s runs containers the stock way' \
            "$(sed -n '1s/^[^:]*: \([a-z]*\),.*/\1/p' <<<"$status")" "$slots" "$1"
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
    local d=$JVMREUSE_CLUSTER_DIR cp
    _jvmreuse_cluster_hdfs_webapps
    cp="$d/conf:$d/hdfs/webapps-root:$(_jvmreuse_hadoop_cp)"
    if ! "$JVMREUSE_CLUSTER_JAVA_HOME/bin/java" -Djava.net.preferIPv4Stack=true -Dhadoop.root.logger=INFO,console \
        -Dhadoop.log.dir="$d/logs" -Djava.io.tmpdir="$d/tmp" -cp "$cp" \
        org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
        </dev/null >"$d/logs/namenode-format.log" 2>&1; then
        _jvmreuse_cluster_daemon_failed namenode-format "failed (HDFS could not be formatted)"
        return 1
    fi
    _jvmreuse_cluster_daemon namenode "$cp" org.apache.hadoop.hdfs.server.namenode.NameNode
    _jvmreuse_cluster_daemon datanode "$cp" org.apache.hadoop.hdfs.server.datanode.DataNode
    _jvmreuse_cluster_wait_for "NameNode RPC port ${JVMREUSE_CLUSTER_PORTS[nn]}" namenode \
        _jvmreuse_port_open "${JVMREUSE_CLUSTER_PORTS[nn]}"
}

# Starts NodeManager $1 with JAVA_HOME exported (containers run $JAVA_HOME/bin/java); in pool mode
# the hadoop-patch jar (PoolContainerExecutor) goes in front of Hadoop's jars.
_jvmreuse_cluster_start_nm() {
    local i=$1 d=$JVMREUSE_CLUSTER_DIR cp webapp
    cp="$d/nm$i/conf"
    if [[ $JVMREUSE_POOL == 1 ]]; then
        cp+=":$JVMREUSE_PATCH_JAR"
    fi
    cp+=":$(_jvmreuse_hadoop_cp)"
    read -r -a webapp <<<"$(_jvmreuse_webapp_opts)"
    JAVA_HOME=$JVMREUSE_CLUSTER_JAVA_HOME HADOOP_CONF_DIR=$d/conf \
        _jvmreuse_cluster_daemon "nodemanager$i" "$cp" org.apache.hadoop.yarn.server.nodemanager.NodeManager \
        ${webapp[@]+"${webapp[@]}"}
}

# Starts the whole cluster and waits until it is healthy: HDFS first (optional; the JHS creates
# its directories there), then at once the pools (pool mode: one mpirun, in the background), RM, JHS and the
# NodeManagers: a NodeManager retries registering every second until the RM listens, and starting
# them together takes about 6 s instead of 10 s on 2 cores. Ready means: the RM reports N active
# NodeManagers, the JHS answers on its port, the DataNode is live (HDFS) and every pool has
# finished starting (a pool that did not come up is a warning, see _jvmreuse_cluster_wait_pools).
_jvmreuse_cluster_start_all() {
    local d=$JVMREUSE_CLUSTER_DIR i webapp
    read -r -a webapp <<<"$(_jvmreuse_webapp_opts)"
    JVMREUSE_CLUSTER_DEADLINE=$(($(date +%s) + JVMREUSE_CLUSTER_TIMEOUT))
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_cluster_start_hdfs || return 1
    fi
    JVMREUSE_CLUSTER_POOL_JOB=
    if [[ $JVMREUSE_POOL == 1 ]]; then
        _jvmreuse_cluster_warmup
        _jvmreuse_cluster_start_pools
    fi
    _jvmreuse_cluster_daemon resourcemanager "$d/conf:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.yarn.server.resourcemanager.ResourceManager ${webapp[@]+"${webapp[@]}"}
    _jvmreuse_cluster_daemon historyserver "$d/conf:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer ${webapp[@]+"${webapp[@]}"}
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        _jvmreuse_cluster_start_nm "$i"
    done
    _jvmreuse_cluster_wait_for "$JVMREUSE_NODEMANAGERS active NodeManagers" resourcemanager \
        _jvmreuse_rm_has_nodes "$JVMREUSE_NODEMANAGERS" || return 1
    _jvmreuse_cluster_wait_for "port ${JVMREUSE_CLUSTER_PORTS[jhs]}" historyserver _jvmreuse_port_open "${JVMREUSE_CLUSTER_PORTS[jhs]}" || return 1
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_cluster_wait_for "a live DataNode" datanode _jvmreuse_nn_has_datanode || return 1
    fi
    _jvmreuse_cluster_wait_pools
    _jvmreuse_cluster_check_alive
}

# Says what is being started.
_jvmreuse_cluster_describe() {
    local containers=stock fs=file:///
    if [[ $JVMREUSE_POOL == 1 ]]; then
        containers="in pools of $(_jvmreuse_cluster_slots) slots (heap $JVMREUSE_SLOT_HEAP), one per NodeManager, all in one mpirun"
        if _jvmreuse_cluster_mpi_shuffle; then
            containers+=", MPI shuffle on"
        else
            containers+=", MPI shuffle off"
        fi
        _jvmreuse_cluster_warmup
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
        if _jvmreuse_cluster_mpi_shuffle && [[ -z $JVMREUSE_MPI_SHUFFLE_JAR ]]; then
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
    _jvmreuse_cluster_write_conf
    for ((i = 1; i <= JVMREUSE_NODEMANAGERS; i++)); do
        _jvmreuse_cluster_write_nm_conf "$i"
    done
    _jvmreuse_cluster_write_env_file
    _jvmreuse_cluster_write_client
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
    local f pid pids=()
    for f in "$@"; do
        [[ -f $f ]] || continue
        pid=$(cat "$f" 2>/dev/null || true)
        if _jvmreuse_cluster_owns "$pid"; then
            pids+=("$pid")
        fi
    done
    jvmreuse_terminate "$JVMREUSE_STOP_TIMEOUT" _jvmreuse_cluster_log ${pids[@]+"${pids[@]}"}
    rm -f "$@"
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

# The PIDs of leftover processes of the cluster: this user's processes whose command line names a
# path in D, or whose working directory is in a NodeManager's dirs (task containers: YARN starts
# them with setsid, and a NodeManager killed hard leaves them behind). Never this shell, its
# ancestors, or processes in its session (the caller, its pipeline, its terminal).
_jvmreuse_cluster_leftovers() {
    local d=$JVMREUSE_CLUSTER_DIR proc pid cmdline cwd mysid sid skip=" " p=$BASHPID
    mysid=$(awk '{ print $6 }' "/proc/$BASHPID/stat" 2>/dev/null || echo 0)
    while [[ $p =~ ^[0-9]+$ && $p -gt 1 ]]; do
        skip+="$p "
        p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null || echo 0)
    done
    skip+="$$ "
    for proc in /proc/[0-9]*; do
        pid=${proc#/proc/}
        [[ $skip != *" $pid "* ]] || continue
        [[ -O $proc ]] || continue
        _jvmreuse_alive "$pid" || continue
        sid=$(awk '{ print $6 }' "$proc/stat" 2>/dev/null) || continue
        [[ $sid != "$mysid" ]] || continue
        cmdline=$(tr '\0' ' ' 2>/dev/null <"$proc/cmdline") || continue
        cwd=$(readlink "$proc/cwd" 2>/dev/null || true)
        if [[ " $cmdline" == *"$d/"* || " $cmdline " == *[\ =:]"$d "* || $cwd == "$d"/nm[0-9]*/* ]]; then
            printf '%s\n' "$pid"
        fi
    done
}

# Ends the leftover processes of the cluster by PID: SIGTERM, up to 3 s, SIGKILL.
_jvmreuse_cluster_sweep() {
    local pids=() pid waited=0
    mapfile -t pids < <(_jvmreuse_cluster_leftovers)
    ((${#pids[@]} > 0)) || return 0
    _jvmreuse_cluster_log "ending leftover processes of $JVMREUSE_CLUSTER_DIR: pid ${pids[*]}"
    kill -TERM "${pids[@]}" 2>/dev/null || true
    while ((waited < 30)); do
        for pid in "${pids[@]}"; do
            if _jvmreuse_alive "$pid"; then
                sleep 0.1
                waited=$((waited + 1))
                continue 2
            fi
        done
        return 0
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
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
    local d=$JVMREUSE_CLUSTER_DIR f name pid state running=1
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
    while IFS= read -r f; do
        name=${f#"$d"/}
        name=${name#pids/}
        name=${name%.pid}
        pid=$(cat "$f" 2>/dev/null || true)
        if _jvmreuse_cluster_owns "$pid"; then
            state=running
            running=0
        else
            state=DEAD
        fi
        if [[ $name == pools ]]; then
            name="pools (mpirun)"
        fi
        printf '  %-18s pid %-8s %s\n' "$name" "$pid" "$state"
    done < <(_jvmreuse_cluster_pid_files | sort)
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
