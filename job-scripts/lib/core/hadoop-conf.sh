# shellcheck shell=bash
#
# hadoop-conf.sh -- the one writer of Hadoop's configuration files, for the one-machine cluster
# (cluster/local-cluster.sh) and HPC jobs (batch/hpc-job.sh): it renders the templates in job-scripts/conf/*.xml.in
# with the values its caller puts in the associative array JVMREUSE_CONF (placeholder name ->
# value), then appends the user's extra properties. Sourced; callers use `set -euo pipefail`.
#
#   jvmreuse_conf_values WORK CONF MASTER BIND NODES VCORES AM_MB AM_HEAP_MB PORTS
#                                     sets JVMREUSE_CONF to what every deployment's templates take
#                                     (one place for the cluster's and the batch job's values): the
#                                     WORK dir, the clients' CONF dir (first on the application
#                                     class path), the MASTER's address (RM, JHS, NameNode), the
#                                     daemons' BIND address, NODES NodeManagers of VCORES and
#                                     JVMREUSE_NM_MEMORY each, AMs of AM_MB with -Xmx AM_HEAP_MB,
#                                     and PORT_<NAME> for each entry of the associative array named
#                                     PORTS (rm, rm_scheduler, ..., jhs_web, nn, nn_http, ...); the
#                                     caller adds what is its own (node names, dirs, sockets)
#   jvmreuse_conf_check               checks the user's overrides (below); call before writing
#   jvmreuse_conf_render NAME         prints template NAME (e.g. yarn-site.xml: NAME.in) rendered
#   jvmreuse_conf_write_shared DIR [FRAGMENT...]
#                                     writes the files every daemon and client shares into DIR:
#                                     core-site, yarn-site, mapred-site, capacity-scheduler,
#                                     hdfs-site (JVMREUSE_HDFS=1; with the FRAGMENT templates, e.g.
#                                     datanode-properties.xml when a DataNode reads DIR), log4j.properties
#   jvmreuse_conf_write_node DIR      writes NodeManager's files into DIR: core-site, yarn-site with
#                                     nodemanager-properties (+ pool-properties with JVMREUSE_POOL=1),
#                                     mapred-site with shuffle-properties, hdfs-site with
#                                     datanode-properties (JVMREUSE_HDFS=1), log4j.properties
#
# Every site file also gets the properties of JVMREUSE_HADOOP_VERSION's own (hadoop-version.sh's
# jvmreuse_hadoop_properties, same placeholders), after the template's and before the user's.
#
# A template's @NAME@ is replaced by JVMREUSE_CONF[NAME], XML-escaped; @EXTRA_PROPERTIES@ takes
# JVMREUSE_CONF[EXTRA_PROPERTIES] as it is (rendered <property> elements). A name without a value
# is an error. Each function returns 1 after an error message.
#
# User overrides (environment, or job-scripts/conf/jvmreuse-job.conf for HPC jobs):
#   JVMREUSE_CONF_OVERRIDES=DIR   a template DIR/NAME.in (NAME one of the templates in
#                                 job-scripts/conf, log4j.properties included) replaces the
#                                 project's; any other file in DIR is an error
#   JVMREUSE_CORE_SITE_EXTRA, JVMREUSE_YARN_SITE_EXTRA, JVMREUSE_MAPRED_SITE_EXTRA,
#   JVMREUSE_HDFS_SITE_EXTRA, JVMREUSE_CAPACITY_SCHEDULER_EXTRA
#                                 "name=value name=value ...": properties appended to that file
#                                 (every copy: master and nodes); a later property of the same name
#                                 wins in Hadoop, so these replace the templates' values. Values
#                                 cannot hold white space (use an override template for those)

JVMREUSE_CONF_TEMPLATES=${JVMREUSE_CONF_TEMPLATES:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../conf" && pwd)}
# The files that take extra properties, and so the *_EXTRA variables.
_jvmreuse_conf_sites=(core-site yarn-site mapred-site hdfs-site capacity-scheduler)

# shellcheck source=job-scripts/lib/core/log.sh
source "$(dirname "${BASH_SOURCE[0]}")/log.sh"

jvmreuse_conf_values() {
    local work=$1 conf=$2 master=$3 bind=$4 nodes=$5 vcores=$6 am_mb=$7 am_heap=$8 fs=file:/// am_opts name
    local -n _jvmreuse_conf_ports=$9
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        fs=hdfs://$master:${_jvmreuse_conf_ports[nn]}
    fi
    am_opts=$(jvmreuse_am_opts "$am_heap")
    declare -gA JVMREUSE_CONF=([FS_DEFAULT]=$fs [WORK_DIR]=$work [MASTER_ADDR]=$master [BIND_ADDR]=$bind
        [NM_MEMORY]=$JVMREUSE_NM_MEMORY [VCORES]=$vcores [APP_CLASSPATH]="$conf,$(jvmreuse_app_jars)"
        [AM_OPTS]=${am_opts% } [AM_MEMORY]=$am_mb [TASK_MEMORY]=$JVMREUSE_TASK_MEMORY [EXTRA_PROPERTIES]=''
        [HEARTBEAT_MS]=$(jvmreuse_heartbeat_ms "$nodes") [UBERTASK]=$(jvmreuse_ubertask)
        [AM_RESOURCE_PERCENT]=$(jvmreuse_am_resource_percent $((nodes * JVMREUSE_NM_MEMORY)) "$am_mb" "$JVMREUSE_TASK_MEMORY")
        [EXECUTOR_CLASS]=${JVMREUSE_EXECUTOR_CLASS:-${JVMREUSE_HADOOP_EXECUTOR_CLASS:-}} [POOL_CLIENT]=${JVMREUSE_CLIENT:-} [SLOT_HEAP]=$JVMREUSE_SLOT_HEAP
        [POOL_APPMASTER]=$([[ ${JVMREUSE_HADOOP_POOLED_AM:-0} == 1 ]] && echo true || echo false)
        [UMBILICAL_ENGINE]=$(jvmreuse_umbilical_engine))
    for name in "${!_jvmreuse_conf_ports[@]}"; do
        JVMREUSE_CONF[PORT_${name^^}]=${_jvmreuse_conf_ports[$name]}
    done
}

_jvmreuse_conf_error() { jvmreuse_log jvmreuse-conf "ERROR: $*"; }

# The *_EXTRA variable of site file $1 (e.g. yarn-site -> JVMREUSE_YARN_SITE_EXTRA).
_jvmreuse_conf_extra_var() {
    local v=${1^^}
    printf 'JVMREUSE_%s_EXTRA' "${v//-/_}"
}

# Splits variable $1 at white space into the caller's array kvs (no globbing).
_jvmreuse_conf_extra_list() {
    read -r -d '' -a kvs <<<"${!1:-}" || true
}

jvmreuse_conf_check() {
    local dir=${JVMREUSE_CONF_OVERRIDES:-} f base site var kv kvs
    if [[ -n $dir ]]; then
        if [[ ! -d $dir || ! -r $dir || ! -x $dir ]]; then
            _jvmreuse_conf_error "JVMREUSE_CONF_OVERRIDES=$dir is not a readable directory"
            return 1
        fi
        for f in "$dir"/* "$dir"/.[!.]*; do
            [[ -e $f ]] || continue
            base=${f##*/}
            if [[ $base != *.in && $base != log4j.properties || ! -f $JVMREUSE_CONF_TEMPLATES/$base ]]; then
                _jvmreuse_conf_error "JVMREUSE_CONF_OVERRIDES: $f replaces no template (known: $(cd "$JVMREUSE_CONF_TEMPLATES" && echo *.in log4j.properties))"
                return 1
            fi
            if [[ ! -r $f ]]; then
                _jvmreuse_conf_error "JVMREUSE_CONF_OVERRIDES: cannot read $f"
                return 1
            fi
        done
    fi
    for site in "${_jvmreuse_conf_sites[@]}"; do
        var=$(_jvmreuse_conf_extra_var "$site")
        _jvmreuse_conf_extra_list "$var"
        for kv in ${kvs[@]+"${kvs[@]}"}; do
            if ! [[ $kv =~ ^[A-Za-z0-9_.-]+=.*$ ]]; then
                _jvmreuse_conf_error "$var: '$kv' is not name=value (a property name is letters, digits, '.', '_' or '-')"
                return 1
            fi
        done
    done
}

# The path of template $1 (a file name in job-scripts/conf): the user's override if there is one.
_jvmreuse_conf_template() {
    local dir=${JVMREUSE_CONF_OVERRIDES:-}
    if [[ -n $dir && -f $dir/$1 ]]; then
        printf '%s/%s' "$dir" "$1"
    else
        printf '%s/%s' "$JVMREUSE_CONF_TEMPLATES" "$1"
    fi
}

_jvmreuse_conf_escape() {
    local v=$1
    v=${v//&/"&amp;"}
    v=${v//</"&lt;"}
    v=${v//>/"&gt;"}
    printf '%s' "$v"
}

jvmreuse_conf_render() {
    local file
    file=$(_jvmreuse_conf_template "$1.in")
    if [[ ! -r $file ]]; then
        _jvmreuse_conf_error "the template $file is missing"
        return 1
    fi
    _jvmreuse_conf_fill "$(<"$file")" "template $file"
}

# Prints text $1 with its placeholders filled in; $2 names where the text comes from (for errors).
_jvmreuse_conf_fill() {
    local text=$1 out='' name value
    while [[ $text =~ @([A-Z][A-Z0-9_]*)@ ]]; do
        name=${BASH_REMATCH[1]}
        if [[ -z ${JVMREUSE_CONF[$name]+x} ]]; then
            _jvmreuse_conf_error "$2: no value for @$name@"
            return 1
        fi
        value=${JVMREUSE_CONF[$name]}
        [[ $name == EXTRA_PROPERTIES ]] || value=$(_jvmreuse_conf_escape "$value")
        out+=${text%%"@$name@"*}$value
        text=${text#*"@$name@"}
    done
    printf '%s%s\n' "$out" "$text"
}

# Renders site file $1 (e.g. yarn-site) into DIR $2 with fragment templates $3... as its
# EXTRA_PROPERTIES, then, before </configuration>, the Hadoop version's own properties
# (hadoop-version.sh) and the user's extra properties (a later one wins in Hadoop).
_jvmreuse_conf_write_site() {
    local site=$1 dir=$2 extra='' frag text own var kv kvs name
    shift 2
    for frag in "$@"; do
        text=$(jvmreuse_conf_render "$frag") || return 1
        extra+=${extra:+$'\n'}$text
    done
    JVMREUSE_CONF[EXTRA_PROPERTIES]=$extra
    text=$(jvmreuse_conf_render "$site.xml") || return 1
    JVMREUSE_CONF[EXTRA_PROPERTIES]=''
    own=$(jvmreuse_hadoop_properties "$site")
    if [[ -n $own ]]; then
        own=$(_jvmreuse_conf_fill "$own" "Hadoop $JVMREUSE_HADOOP_VERSION's $site properties (hadoop-version.sh)") || return 1
        extra="  <!-- Hadoop $JVMREUSE_HADOOP_VERSION's own, from job-scripts/lib/core/hadoop-version.sh -->"$'\n'$own
    fi
    var=$(_jvmreuse_conf_extra_var "$site")
    if [[ -n ${!var:-} ]]; then
        extra+=${extra:+$'\n'}"  <!-- from $var -->"
        _jvmreuse_conf_extra_list "$var"
        for kv in "${kvs[@]}"; do
            name=${kv%%=*}
            extra+=$'\n'"  <property><name>$name</name><value>$(_jvmreuse_conf_escape "${kv#*=}")</value></property>"
        done
    fi
    if [[ -n $extra ]]; then
        if [[ $text != *'</configuration>'* ]]; then
            _jvmreuse_conf_error "$(_jvmreuse_conf_template "$site.xml.in") has no </configuration> to add properties to (Hadoop $JVMREUSE_HADOOP_VERSION's own, $var)"
            return 1
        fi
        text="${text%</configuration>*}$extra"$'\n'"</configuration>${text##*</configuration>}"
    fi
    printf '%s\n' "$text" >"$dir/$site.xml"
}

jvmreuse_conf_write_shared() {
    local dir=$1
    shift
    mkdir -p "$dir"
    _jvmreuse_conf_write_site core-site "$dir" &&
        _jvmreuse_conf_write_site yarn-site "$dir" &&
        _jvmreuse_conf_write_site mapred-site "$dir" &&
        _jvmreuse_conf_write_site capacity-scheduler "$dir" || return 1
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_conf_write_site hdfs-site "$dir" "$@" || return 1
    fi
    cp "$(_jvmreuse_conf_template log4j.properties)" "$dir/log4j.properties"
}

jvmreuse_conf_write_node() {
    local dir=$1 frags=(nodemanager-properties.xml)
    mkdir -p "$dir"
    if [[ $JVMREUSE_POOL == 1 ]]; then
        frags+=(pool-properties.xml)
    fi
    _jvmreuse_conf_write_site core-site "$dir" &&
        _jvmreuse_conf_write_site yarn-site "$dir" "${frags[@]}" &&
        _jvmreuse_conf_write_site mapred-site "$dir" shuffle-properties.xml || return 1
    if [[ $JVMREUSE_HDFS == 1 ]]; then
        _jvmreuse_conf_write_site hdfs-site "$dir" datanode-properties.xml || return 1
    fi
    cp "$(_jvmreuse_conf_template log4j.properties)" "$dir/log4j.properties"
}
