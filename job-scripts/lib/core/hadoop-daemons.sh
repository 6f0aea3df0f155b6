# shellcheck shell=bash
#
# hadoop-daemons.sh -- starting Hadoop's daemons (ResourceManager, JobHistoryServer, NodeManager,
# NameNode, DataNode) from the jars in JVMREUSE_HADOOP_LIB (hadoop-version.sh) with the JDK in
# JVMREUSE_CLUSTER_JAVA_HOME, for the one-machine cluster (cluster/local-cluster.sh) and HPC jobs
# (batch/hpc-job.sh on the master, batch/hpc-node.sh on each node). Every function takes the daemon's
# directory DIR: its log goes to DIR/logs/NAME.log, its PID to DIR/pids/NAME.pid, its temporary
# files to DIR/tmp/NAME. Sourced; callers use `set -euo pipefail`.
#
#   jvmreuse_daemon_start DIR NAME CP CLASS [JVM option...] [-- argument...]
#                                   starts CLASS in the background in its own session
#   jvmreuse_start_resourcemanager DIR CONF_DIR
#   jvmreuse_start_historyserver DIR CONF_DIR
#   jvmreuse_start_nodemanager DIR NAME CONF_DIR SHARED_CONF_DIR
#                                   CONF_DIR: the NodeManager's own configuration; SHARED_CONF_DIR
#                                   (HADOOP_CONF_DIR of its containers): the clients'; in pool mode
#                                   (JVMREUSE_POOL=1) the version's executor jar (JVMREUSE_EXECUTOR_JAR),
#                                   the hadoop-patch jar and the pool's jar (its admission rules:
#                                   JVMREUSE_ADMISSION_JAR) join its class path
#   jvmreuse_hdfs_webapps DIR       writes DIR/hdfs/webapps-root, which the HDFS daemons need
#   jvmreuse_hdfs_format DIR CONF_DIR   starts formatting the NameNode's name dir in the background,
#                                   as a daemon named namenode-format (its PID, log and exit status
#                                   are the caller's to wait for)
#   jvmreuse_start_namenode DIR CONF_DIR
#   jvmreuse_start_datanode DIR CONF_DIR WEBAPPS_DIR   WEBAPPS_DIR: the DIR of jvmreuse_hdfs_webapps
#   jvmreuse_rm_has_nodes HOST:PORT N   whether the RM (its web address) reports N active NodeManagers
#   jvmreuse_nn_has_datanode HOST:PORT  whether the NameNode (its http address) reports a live DataNode
# Stopping is by PID file: processes.sh's jvmreuse_stop_pid_files with DIR/pids/NAME.pid.

# The class path of the Hadoop daemons (after their conf dir).
_jvmreuse_hadoop_cp() { printf '%s' "$JVMREUSE_HADOOP_LIB/*"; }

jvmreuse_daemon_start() {
    local d=$1 name=$2 cp=$3 class=$4 opts=() args=() launcher=()
    shift 4
    read -r -a opts <<<"${JVMREUSE_DAEMON_OPTS:-}"
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

jvmreuse_start_resourcemanager() {
    local webapp
    read -r -a webapp <<<"$(_jvmreuse_webapp_opts)"
    jvmreuse_daemon_start "$1" resourcemanager "$2:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.yarn.server.resourcemanager.ResourceManager ${webapp[@]+"${webapp[@]}"}
}

jvmreuse_start_historyserver() {
    local webapp
    read -r -a webapp <<<"$(_jvmreuse_webapp_opts)"
    jvmreuse_daemon_start "$1" historyserver "$2:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer ${webapp[@]+"${webapp[@]}"}
}

# JAVA_HOME is exported: containers run $JAVA_HOME/bin/java.
jvmreuse_start_nodemanager() {
    local cp=$3 webapp
    if [[ $JVMREUSE_POOL == 1 ]]; then
        if [[ -n ${JVMREUSE_EXECUTOR_JAR:-} && $JVMREUSE_EXECUTOR_JAR != "$JVMREUSE_PATCH_JAR" ]]; then
            cp+=":$JVMREUSE_EXECUTOR_JAR" # the version's executor (3.x), beside hadoop-patch's launch
        fi
        cp+=":$JVMREUSE_PATCH_JAR:$JVMREUSE_ADMISSION_JAR"
    fi
    read -r -a webapp <<<"$(_jvmreuse_webapp_opts)"
    JAVA_HOME=$JVMREUSE_CLUSTER_JAVA_HOME HADOOP_CONF_DIR=$4 \
        jvmreuse_daemon_start "$1" "$2" "$cp:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.yarn.server.nodemanager.NodeManager ${webapp[@]+"${webapp[@]}"}
}

# HttpServer looks up webapps/<name> on the class path; hadoop-hdfs-2.2.0.jar from Maven Central
# has none (the tarball has them under share/hadoop/hdfs/webapps). Empty ones do: the NameNode and
# DataNode add their servlets (/jmx among them) in code.
jvmreuse_hdfs_webapps() {
    local w=$1/hdfs/webapps-root/webapps name
    for name in hdfs datanode secondary; do
        mkdir -p "$w/$name/WEB-INF"
        printf '<?xml version="1.0"?>\n<web-app xmlns="http://java.sun.com/xml/ns/javaee" version="2.5"/>\n' >"$w/$name/WEB-INF/web.xml"
    done
}

jvmreuse_hdfs_format() {
    jvmreuse_daemon_start "$1" namenode-format "$2:$1/hdfs/webapps-root:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.hdfs.server.namenode.NameNode -- -format -force -nonInteractive
}

jvmreuse_start_namenode() {
    jvmreuse_daemon_start "$1" namenode "$2:$1/hdfs/webapps-root:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.hdfs.server.namenode.NameNode
}

jvmreuse_start_datanode() {
    jvmreuse_daemon_start "$1" datanode "$2:$3/hdfs/webapps-root:$(_jvmreuse_hadoop_cp)" \
        org.apache.hadoop.hdfs.server.datanode.DataNode
}

jvmreuse_rm_has_nodes() {
    local metrics
    metrics=$(curl -sf --max-time 3 "http://$1/ws/v1/cluster/metrics" 2>/dev/null) || return 1
    [[ $metrics =~ \"activeNodes\":([0-9]+) ]] && ((BASH_REMATCH[1] >= $2))
}

jvmreuse_nn_has_datanode() {
    local jmx
    jmx=$(curl -sf --max-time 2 "http://$1/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState" 2>/dev/null) || return 1
    [[ $jmx =~ \"NumLiveDataNodes\"\ *:\ *([0-9]+) ]] && ((BASH_REMATCH[1] >= 1))
}
