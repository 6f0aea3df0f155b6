# shellcheck shell=bash source-path=SCRIPTDIR disable=SC2034 # sets globals (JVMREUSE_*) for its callers
#
# hadoop-env.sh -- what every Hadoop deployment of ours needs, the one-machine cluster
# (cluster/local-cluster.sh) and HPC jobs (batch/hpc-job.sh) alike. Sourced (through core.sh).
#
#   jvmreuse_hadoop_locate REPO   the build's Hadoop jars (JVMREUSE_HADOOP_VERSION's), hadoop-patch and
#                                 MPI shuffle jars (mpi-shuffle's for 2.2, mpi-shuffle3's for 3.x)
#   jvmreuse_java_home            the JDK (JVMREUSE_CLUSTER_JAVA, JAVA_HOME, java on PATH); Java 23+ refused
#   jvmreuse_am_opts MB           the MRAppMaster's JVM options
#   jvmreuse_am_resource_percent TOTAL AM TASK   YARN's AM share that leaves room for a task
#   jvmreuse_app_jars             yarn.application.classpath's jars
#   jvmreuse_umbilical_engine     the tasks' umbilical RPC engine (task launch counters)
#   jvmreuse_write_clients DIR    DIR/env.sh and the hadoop/yarn/mapred/hdfs wrappers in DIR/bin
#   jvmreuse_warmup               what each slot runs before it serves

# shellcheck source=job-scripts/lib/core/log.sh
source "$(dirname "${BASH_SOURCE[0]}")/log.sh"

_jvmreuse_hadoop_log() { jvmreuse_log jvmreuse "$@"; }

# Sets JVMREUSE_REPO ($1), the facts of JVMREUSE_HADOOP_VERSION (hadoop-version.sh: JVMREUSE_HADOOP_LIB,
# ...; none for an unknown version, which the settings check refuses), JVMREUSE_PATCH_JAR,
# JVMREUSE_EXECUTOR_JAR, JVMREUSE_ADMISSION_JAR (the pool's jar, whose admission rules the
# NodeManager's executor applies) and JVMREUSE_MPI_SHUFFLE_JAR (the version's MPI shuffle jar,
# JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE's; empty when not built) and exports
# them. hadoop-patch's jar (the pool's launch, the slots' per-task reset, 2.2's executor, the task
# launch counters) is empty on a Hadoop the pool is not built for, so its tasks and clients run
# Hadoop's own classes only; JVMREUSE_EXECUTOR_JAR is the version's jar of its executor and
# counters' engine (hadoop-patch's for 2.2, hadoop3-patch's for 3.x).
jvmreuse_hadoop_locate() {
    JVMREUSE_REPO=$1
    JVMREUSE_HADOOP_LIB='' JVMREUSE_HADOOP_POOL=0 JVMREUSE_HADOOP_POOLED_AM=0 JVMREUSE_HADOOP_MPI_SHUFFLE=0
    JVMREUSE_HADOOP_WARMUP=0 JVMREUSE_PATCH_JAR='' JVMREUSE_EXECUTOR_JAR='' JVMREUSE_MPI_SHUFFLE_JAR=''
    JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE='' JVMREUSE_HADOOP_AM_SHARE=units
    jvmreuse_hadoop_facts "$JVMREUSE_REPO" || true
    if [[ $JVMREUSE_HADOOP_POOL == 1 ]]; then
        JVMREUSE_PATCH_JAR=$(_jvmreuse_module_jar hadoop-patch)
        JVMREUSE_EXECUTOR_JAR=$(_jvmreuse_module_jar "$JVMREUSE_HADOOP_EXECUTOR_MODULE")
    fi
    JVMREUSE_ADMISSION_JAR=$(_jvmreuse_module_jar pool-manager)
    if [[ -n $JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE ]]; then
        JVMREUSE_MPI_SHUFFLE_JAR=$(_jvmreuse_module_jar "$JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE")
    fi
    export JVMREUSE_REPO JVMREUSE_HADOOP_VERSION JVMREUSE_HADOOP_LIB JVMREUSE_PATCH_JAR JVMREUSE_ADMISSION_JAR \
        JVMREUSE_MPI_SHUFFLE_JAR JVMREUSE_EXECUTOR_JAR
}

# The jar reactor module $1 builds (target/$1-*.jar; not its sources, tests, or pool-manager's
# boot and launcher jars), or nothing when it is not built.
_jvmreuse_module_jar() {
    find "$JVMREUSE_REPO/$1/target" -maxdepth 1 -name "$1-*.jar" ! -name '*-sources.jar' ! -name '*-tests.jar' \
        ! -name '*-boot.jar' ! -name '*-launcher.jar' 2>/dev/null | head -n 1
}

# The jar of the slots' TaskWarmup: hadoop-patch's on the Hadoop it is built for
# (JVMREUSE_HADOOP_WARMUP), else nothing.
_jvmreuse_task_hooks_jar() {
    [[ ${JVMREUSE_HADOOP_WARMUP:-0} != 1 ]] || printf '%s' "${JVMREUSE_PATCH_JAR:-}"
}

# Picks the JDK: JVMREUSE_CLUSTER_JAVA (a JDK directory or a java binary), else JAVA_HOME, else
# the JDK of `java` on PATH (symlinks resolved, e.g. Debian's /usr/lib/jvm/java-17-openjdk-amd64).
# Sets JVMREUSE_CLUSTER_JAVA_HOME and JVMREUSE_JAVA_MAJOR. Java 23+ is refused (Hadoop 2.2).
jvmreuse_java_home() {
    local j=${JVMREUSE_CLUSTER_JAVA:-${JAVA_HOME:-}} home
    if [[ -z $j ]]; then
        j=$(command -v java) || { _jvmreuse_hadoop_log "ERROR: no java: set JAVA_HOME or give --java"; return 1; }
    fi
    if [[ -d $j ]]; then
        home=$(cd "$j" && pwd -P)
    elif [[ -x $j ]]; then
        home=$(dirname "$(dirname "$(readlink -f "$j")")")
    else
        _jvmreuse_hadoop_log "ERROR: '$j' is neither a JDK directory nor a java executable"
        return 1
    fi
    if [[ ! -x $home/bin/java ]]; then
        _jvmreuse_hadoop_log "ERROR: $home/bin/java does not exist: '$j' is not a JDK"
        return 1
    fi
    JVMREUSE_CLUSTER_JAVA_HOME=$home
    JVMREUSE_JAVA_MAJOR=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' "$home/release" 2>/dev/null || true)
    if [[ -z $JVMREUSE_JAVA_MAJOR ]]; then
        JVMREUSE_JAVA_MAJOR=$("$home/bin/java" -XshowSettings:properties -version 2>&1 |
            sed -n 's/^ *java.specification.version = \(1\.\)\{0,1\}\([0-9]*\).*/\2/p')
    fi
    # The one check for both the cluster and HPC jobs: the daemons would die at their first login.
    if [[ ${JVMREUSE_JAVA_MAJOR:-0} -ge 23 ]]; then
        _jvmreuse_hadoop_log "ERROR: $home is Java $JVMREUSE_JAVA_MAJOR; Hadoop 2.2 daemons do not run on Java 23 or" \
            "later (UserGroupInformation calls Subject.getSubject, which throws UnsupportedOperationException" \
            "from Java 23 on): use a JDK 17 (jvmreuse-cluster --java, JVMREUSE_JAVA_HOME for jobs)"
        return 1
    fi
}

# yarn.app.mapreduce.am.command-opts with a heap of $1 MB. The AppMaster's temporary files (its
# web app's Jetty work dir) go to its container's tmp dir, which YARN deletes with the container,
# as Hadoop does for tasks; Hadoop 2.2 leaves them in /tmp otherwise, one dir per job.
jvmreuse_am_opts() {
    # shellcheck disable=SC2016 # $PWD is the container's, expanded by its launch script
    printf -- '-Xmx%sm -Djava.io.tmpdir=$PWD/tmp %s' "$1" "$(_jvmreuse_webapp_opts)"
}

# yarn.scheduler.capacity.maximum-am-resource-percent for $1 MB of containers in the cluster, AMs
# of $2 MB and tasks of $3 MB: as many application masters as leave room for one task. Hadoop 2.2's
# CapacityScheduler counts that share in minimum allocations (256 MB here), not in AM sizes:
# ceil(cluster / 256 x percent) AMs may run, so a plain 0.5 let 8 AMs of 768 MB into a 4 GB
# cluster, which then had no memory left for their tasks (a YARN deadlock, pool or not); its value
# is half a 256 MB unit short of the count, so that the ceiling lands on it. 3.x's counts the AMs'
# own memory against percent x cluster (JVMREUSE_HADOOP_AM_SHARE=sizes): there 2.2's value let
# one AM run at a time, and each job waited for the previous job's AM to end; its value is half
# an AM over the count.
jvmreuse_am_resource_percent() {
    awk -v total="$1" -v am="$2" -v task="$3" -v sizes="$([[ ${JVMREUSE_HADOOP_AM_SHARE:-} == sizes ]] && echo 1 || echo 0)" 'BEGIN {
        n = int((total - task) / am); if (n < 1) n = 1
        printf "%.6f", (sizes ? (n + 0.5) * am : (n - 0.5) * 256) / total }'
}

# Whether the cluster runs the MPI shuffle: pool mode with JVMREUSE_MPI_SHUFFLE=1, on a Hadoop it
# is built for (JVMREUSE_HADOOP_MPI_SHUFFLE).
jvmreuse_mpi_shuffle_on() {
    [[ $JVMREUSE_POOL == 1 && $JVMREUSE_MPI_SHUFFLE == 1 && ${JVMREUSE_HADOOP_MPI_SHUFFLE:-0} == 1 ]]
}

# The jars of yarn.application.classpath (after the conf dir): Hadoop's, and the version's MPI
# shuffle jar with the MPI shuffle (its reduce-side plug-in), and the hadoop-patch jar and on 3.x hadoop3-patch's
# (the task launch counters, docs/hadoop.md), comma-separated. The PoolContainerExecutor shares
# these jars in the slots.
jvmreuse_app_jars() {
    printf '%s' "$JVMREUSE_HADOOP_LIB/*"
    [[ -z ${JVMREUSE_PATCH_JAR:-} ]] || printf ',%s' "$JVMREUSE_PATCH_JAR"
    if [[ -n ${JVMREUSE_EXECUTOR_JAR:-} && $JVMREUSE_EXECUTOR_JAR != "${JVMREUSE_PATCH_JAR:-}" ]]; then
        printf ',%s' "$JVMREUSE_EXECUTOR_JAR" # 3.x: its counters' engine
    fi
    if jvmreuse_mpi_shuffle_on; then
        printf ',%s' "$JVMREUSE_MPI_SHUFFLE_JAR"
    fi
}

# The RPC engine of the tasks' umbilical: the version's engine that adds the task launch counters
# (docs/hadoop.md), where its jars are on the tasks' class path; else Hadoop's own.
jvmreuse_umbilical_engine() {
    if [[ -n ${JVMREUSE_PATCH_JAR:-} && -n ${JVMREUSE_EXECUTOR_JAR:-} ]]; then
        printf '%s' "$JVMREUSE_HADOOP_COUNTERS_ENGINE"
    else
        printf '%s' org.apache.hadoop.ipc.WritableRpcEngine
    fi
}

# Writes $1/env.sh and the client wrappers $1/bin/{hadoop,yarn,mapred,hdfs} (one script,
# dispatching on its name) for the cluster whose configuration is in $1/conf. Clients need no
# --add-opens.
jvmreuse_write_clients() {
    local d=$1
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

# Sets JVMREUSE_CLUSTER_WARMUP_MAIN/_CP, the program each slot runs before it serves (pool.sh's
# JVMREUSE_WARMUP_MAIN/_CP), from JVMREUSE_WARMUP_MAIN: empty (jvmreuse-cluster's default) or
# "task": hadoop-patch's TaskWarmup, if its jar has it, with the class path the
# PoolContainerExecutor shares for tasks (the application class path's jars, then the hadoop-patch
# jar; with the MPI shuffle the mpi-shuffle jar is one of the application class path's), so the
# warmed-up classes are the ones tasks reuse; "none" (the batch jobs' default): no warm-up, the
# slots warm with their first tasks; another class: that program, with JVMREUSE_WARMUP_CP.
jvmreuse_warmup() {
    local class=org.jvmreuse.hadoop.warmup.TaskWarmup
    JVMREUSE_CLUSTER_WARMUP_MAIN=${JVMREUSE_WARMUP_MAIN:-}
    JVMREUSE_CLUSTER_WARMUP_CP=${JVMREUSE_WARMUP_CP:-}
    [[ $JVMREUSE_CLUSTER_WARMUP_MAIN != task ]] || JVMREUSE_CLUSTER_WARMUP_MAIN='' # the default, by name
    if [[ -z $JVMREUSE_CLUSTER_WARMUP_MAIN ]] && grep -aqF "${class//.//}.class" "$(_jvmreuse_task_hooks_jar)" 2>/dev/null; then
        JVMREUSE_CLUSTER_WARMUP_MAIN=$class
        # the shared class path the PoolContainerExecutor gives tasks (the app jars, which hold
        # this jar): the same list, so that tasks find the loader the warm-up filled
        JVMREUSE_CLUSTER_WARMUP_CP="$(jvmreuse_app_jars | tr , :)"
    elif [[ $JVMREUSE_CLUSTER_WARMUP_MAIN == none ]]; then
        JVMREUSE_CLUSTER_WARMUP_MAIN='' JVMREUSE_CLUSTER_WARMUP_CP=''
    fi
}
