# shellcheck shell=bash disable=SC2034 # sets globals (JVMREUSE_HADOOP_*) for its callers
#
# hadoop-version.sh -- the one place for what differs between the Hadoop versions the product
# runs, each from its own jars, which the Maven reactor copies from Maven Central (no tarball):
#   2.2.0  the default; hadoop-patch/target/hadoop/lib; stock containers or pools
#   3.5.0  hadoop3-patch/target/hadoop/lib; stock containers or pools of tasks and application
#          masters (its executor and launch counters' engine are hadoop3-patch's, its MPI shuffle
#          mpi-shuffle3's jar, its slots' warm-up hadoop-patch's TaskWarmup as on 2.2); what is not
#          built for a version stays stock or off: the flags below
#   3.4.2  hadoop34-install/target/hadoop/lib; as 3.5.0, with hadoop3-patch's executor and engine
#          (its tests, the AM statics audit among them, run against 3.4.2's jars too)
# JVMREUSE_HADOOP_VERSION (defaults.sh; jvmreuse-cluster --hadoop-version) picks one. Everything
# else (templates, daemons, engine) is shared. Sourced (through core.sh).
#
#   JVMREUSE_HADOOP_VERSIONS         the versions known here
#   jvmreuse_hadoop_version_check    prints the problem and returns 1 if JVMREUSE_HADOOP_VERSION is
#                                    not one of them
#   jvmreuse_hadoop_facts REPO       sets the facts of JVMREUSE_HADOOP_VERSION for the checkout REPO:
#       JVMREUSE_HADOOP_LIB          its installation's jars
#       JVMREUSE_HADOOP_MODULE       the reactor module that assembles them
#       JVMREUSE_HADOOP_JARS         the jars (in the lib) a start checks are there
#       JVMREUSE_HADOOP_EXAMPLES_JAR its MapReduce examples jar
#       JVMREUSE_HADOOP_POOL         1: pool mode is built for it; 0: stock only
#       JVMREUSE_HADOOP_EXECUTOR_CLASS  its pool container executor (yarn.nodemanager.container-executor.class)
#       JVMREUSE_HADOOP_EXECUTOR_MODULE the reactor module whose jar holds that executor and engine
#                                    (besides hadoop-patch's, which every NodeManager, task and slot has)
#       JVMREUSE_HADOOP_COUNTERS_ENGINE  its task launch counters' umbilical RPC engine
#       JVMREUSE_HADOOP_POOLED_AM    1: its application masters may run in slots; 0: they go stock
#                                    (its executor says so in the NodeManager log)
#       JVMREUSE_HADOOP_MPI_SHUFFLE  1: the MPI shuffle's plug-in is built for it; 0: HTTP only
#       JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE  the reactor module whose jar is the MPI shuffle for it
#                                    (mpi-shuffle's sources with its VersionParts, docs/shuffle.md)
#       JVMREUSE_HADOOP_WARMUP       1: the slots' TaskWarmup is built for it; 0: no Hadoop warm-up
#       JVMREUSE_HADOOP_AM_SHARE     how its CapacityScheduler counts maximum-am-resource-percent:
#                                    units (2.2: in minimum allocations) or sizes (3.x: the AMs' memory)
#       JVMREUSE_HADOOP_ADD_OPENS_DEFAULT  its default of mapreduce.jvm.add-opens-as-default (true,
#                                    false; empty: no such property)
#                                    returns 1 (nothing set) for an unknown version
#   jvmreuse_hadoop_pool_limits      prints what pools do not do on JVMREUSE_HADOOP_VERSION yet (from
#                                    the flags above and JVMREUSE_MPI_SHUFFLE), or nothing
#   jvmreuse_hadoop_slot_jvm_opts MAPRED_SITE
#                                    sets JVMREUSE_HADOOP_SLOT_OPTS, the JVM options the pools start
#                                    with so that their slots can take the version's MapReduce
#                                    containers under the cluster's mapred-site.xml MAPRED_SITE, and
#                                    JVMREUSE_HADOOP_SLOT_OPTS_WHY, the line that says why
#   jvmreuse_slot_heap_warning       prints why the tasks of JVMREUSE_TASK_MEMORY MB containers would
#                                    not fit slots of JVMREUSE_SLOT_HEAP on this version, or nothing
#   _jvmreuse_webapp_opts            the JVM options of a JVM that runs a YARN web app (RM, NM, JHS,
#                                    MRAppMaster) on the JDK of JVMREUSE_JAVA_MAJOR
#   jvmreuse_hadoop_properties SITE  the version's own properties of site file SITE (core-site,
#                                    yarn-site, mapred-site, hdfs-site, capacity-scheduler): <property>
#                                    lines whose @NAME@ placeholders hadoop-conf.sh fills in; it adds
#                                    them after the template's properties, before the user's extras

JVMREUSE_HADOOP_VERSIONS=(2.2.0 3.4.2 3.5.0)

jvmreuse_hadoop_version_check() {
    local v
    for v in "${JVMREUSE_HADOOP_VERSIONS[@]}"; do
        [[ ${JVMREUSE_HADOOP_VERSION:-} != "$v" ]] || return 0
    done
    echo "JVMREUSE_HADOOP_VERSION (--hadoop-version) must be one of: ${JVMREUSE_HADOOP_VERSIONS[*]} (got '${JVMREUSE_HADOOP_VERSION:-}')"
    return 1
}

jvmreuse_hadoop_facts() {
    local repo=$1 examples
    case ${JVMREUSE_HADOOP_VERSION:-} in
        2.2.0)
            JVMREUSE_HADOOP_MODULE=hadoop-patch JVMREUSE_HADOOP_POOL=1 examples=hadoop-mapreduce-examples-2.2.0.jar
            JVMREUSE_HADOOP_EXECUTOR_CLASS=org.jvmreuse.hadoop.executor.PoolContainerExecutor
            JVMREUSE_HADOOP_EXECUTOR_MODULE=hadoop-patch JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE=mpi-shuffle
            JVMREUSE_HADOOP_POOLED_AM=1 JVMREUSE_HADOOP_MPI_SHUFFLE=1 JVMREUSE_HADOOP_WARMUP=1
            JVMREUSE_HADOOP_AM_SHARE=units JVMREUSE_HADOOP_ADD_OPENS_DEFAULT=
            JVMREUSE_HADOOP_COUNTERS_ENGINE=org.jvmreuse.hadoop.counters.TaskLaunchCountingEngine
            ;;
        3.4.2 | 3.5.0)
            # Central has no examples jar of 3.5.0: both take 3.4.2's (a job jar)
            JVMREUSE_HADOOP_POOL=1 examples=hadoop-mapreduce-examples-3.4.2.jar
            JVMREUSE_HADOOP_EXECUTOR_CLASS=org.jvmreuse.hadoop3.executor.PoolContainerExecutor
            JVMREUSE_HADOOP_EXECUTOR_MODULE=hadoop3-patch JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE=mpi-shuffle3
            JVMREUSE_HADOOP_POOLED_AM=1 JVMREUSE_HADOOP_MPI_SHUFFLE=1 JVMREUSE_HADOOP_WARMUP=1 JVMREUSE_HADOOP_AM_SHARE=sizes
            JVMREUSE_HADOOP_COUNTERS_ENGINE=org.jvmreuse.hadoop3.counters.TaskLaunchCountingEngine
            # 3.4.2's jars are hadoop34-install's; 3.5 turned add-opens-as-default off
            JVMREUSE_HADOOP_MODULE=hadoop3-patch JVMREUSE_HADOOP_ADD_OPENS_DEFAULT=false
            if [[ $JVMREUSE_HADOOP_VERSION != 3.5.0 ]]; then
                JVMREUSE_HADOOP_MODULE=hadoop34-install JVMREUSE_HADOOP_ADD_OPENS_DEFAULT=true
            fi
            ;;
        *) return 1 ;;
    esac
    JVMREUSE_HADOOP_LIB=$repo/$JVMREUSE_HADOOP_MODULE/target/hadoop/lib
    JVMREUSE_HADOOP_EXAMPLES_JAR=$JVMREUSE_HADOOP_LIB/$examples
    JVMREUSE_HADOOP_JARS=("hadoop-yarn-server-nodemanager-$JVMREUSE_HADOOP_VERSION.jar"
        "hadoop-mapreduce-client-hs-$JVMREUSE_HADOOP_VERSION.jar" "$examples")
}

jvmreuse_hadoop_pool_limits() {
    local -a stock=()
    [[ ${JVMREUSE_HADOOP_POOLED_AM:-0} == 1 ]] || stock+=("its application masters take the stock path")
    [[ ${JVMREUSE_HADOOP_MPI_SHUFFLE:-0} == 1 || ${JVMREUSE_MPI_SHUFFLE:-1} != 1 ]] ||
        stock+=("its reducers Hadoop's HTTP shuffle (MPI shuffle off)")
    [[ ${JVMREUSE_HADOOP_WARMUP:-0} == 1 ]] || stock+=("its slots start without Hadoop warm-up")
    ((${#stock[@]} == 0)) || printf 'Hadoop %s with pools: %s: not built for it yet (issue 31)' \
        "$JVMREUSE_HADOOP_VERSION" "$(printf '%s; ' "${stock[@]}" | sed 's/; $//')"
}

# Hadoop gives every MapReduce task -Djava.net.preferIPv4Stack=true (its default
# mapreduce.admin.{map,reduce}.child.java.opts, 2.x and 3.x), and the cluster's mapred-site gives
# its application masters the same (yarn.app.mapreduce.am.admin-command-opts): the JDK picks its IP
# stack once, so the pools start with it, and a run that does not give it goes to a new JVM (the
# pool's admission, StartProperties).
# With mapreduce.jvm.add-opens-as-default true (3.4's default), 3.x's NodeManager on Java 17+ starts
# every MapReduce AM and task with --add-opens=java.base/java.lang=ALL-UNNAMED and the two exports
# below (ContainerLaunch's ADDITIONAL_JDK17_PLUS_OPTIONS). A slot gives a run an open and takes it
# back after; an export it cannot take back (the slot would retire after every run), so the pools
# start with the exports: they serve the runs that ask for them, and send a run that does not (a
# job that sets the flag false) to a new JVM, which says so in the NodeManager log (docs/hadoop.md).
jvmreuse_hadoop_slot_jvm_opts() {
    local value exports='--add-exports=java.base/sun.net.dns=ALL-UNNAMED --add-exports=java.base/sun.net.util=ALL-UNNAMED'
    JVMREUSE_HADOOP_SLOT_OPTS=-Djava.net.preferIPv4Stack=true
    JVMREUSE_HADOOP_SLOT_OPTS_WHY="the slots start with $JVMREUSE_HADOOP_SLOT_OPTS, which Hadoop gives every MapReduce task and this cluster its application masters"
    [[ -n ${JVMREUSE_HADOOP_ADD_OPENS_DEFAULT:-} && ${JVMREUSE_JAVA_MAJOR:-17} -ge 17 ]] || return 0
    # The last value the site file gives (a later property wins in Hadoop), else the version's default.
    value=$(tr -d '\n' <"$1" | grep -o '<name>mapreduce\.jvm\.add-opens-as-default</name>[[:space:]]*<value>[^<]*</value>' |
        sed 's/.*<value>[[:space:]]*\([^<[:space:]]*\)[[:space:]]*<\/value>/\1/' | tail -n 1 || true)
    value=${value:-$JVMREUSE_HADOOP_ADD_OPENS_DEFAULT}
    [[ ${value,,} == true ]] || return 0
    JVMREUSE_HADOOP_SLOT_OPTS+=" $exports"
    JVMREUSE_HADOOP_SLOT_OPTS_WHY+=", and with $exports, which Hadoop $JVMREUSE_HADOOP_VERSION gives every MapReduce container (mapreduce.jvm.add-opens-as-default is true)"
}

# A task that sets no -Xmx gets Hadoop's default heap: 2.x's -Xmx200m (mapred.child.java.opts);
# 3.x's is derived from its container, mapreduce.job.heap.memory-mb.ratio (0.8) of it, rounded up.
# A slot takes only tasks whose heap fits its own, so on 3.x small slot heaps send every task stock.
jvmreuse_slot_heap_warning() {
    local task_heap slot_heap
    slot_heap=$(jvmreuse_mb "$JVMREUSE_SLOT_HEAP")
    case ${JVMREUSE_HADOOP_VERSION:-} in
        3.*) task_heap=$(((JVMREUSE_TASK_MEMORY * 8 + 9) / 10)) ;;
        *) task_heap=200 ;;
    esac
    ((task_heap > slot_heap)) || return 0
    printf 'warning: Hadoop %s gives a task of a %s MB container a heap of %s MB (unless the job sets -Xmx),' \
        "$JVMREUSE_HADOOP_VERSION" "$JVMREUSE_TASK_MEMORY" "$task_heap"
    printf ' above the slot heap %s: such tasks take the stock path; a slot heap of %sm or more takes them' \
        "$JVMREUSE_SLOT_HEAP" "$task_heap"
}

# The web apps of Hadoop 2.2 and 3.4 (Guice / cglib) need java.lang open on Java 9+ (3.4.2's
# ResourceManager does not start without it on Java 17). 3.5.0's need nothing on Java 17 (its RM,
# NM, JHS and MRAppMaster ran jobs and served their pages without it); its tasks neither
# (mapreduce.jvm.add-opens-as-default stays Hadoop's default, false). The flag is harmless where it
# is not needed, so anything before 3.5 gets it.
_jvmreuse_webapp_opts() {
    if [[ ${JVMREUSE_HADOOP_VERSION:-} != 3.[5-9].* && ${JVMREUSE_JAVA_MAJOR:-17} -ge 9 ]]; then
        printf '%s' '--add-opens java.base/java.lang=ALL-UNNAMED'
    fi
}

jvmreuse_hadoop_properties() {
    case ${JVMREUSE_HADOOP_VERSION:-}:$1 in
        3.*:mapred-site)
            # The JobHistoryServer's admin service (3.x; 2.2 has none) would take 10033 on every
            # address: a port of its own (0: any free one; nothing here talks to it).
            cat <<'XML'
  <property><name>mapreduce.jobhistory.admin.address</name><value>@MASTER_ADDR@:0</value></property>
XML
            ;;
    esac
}
