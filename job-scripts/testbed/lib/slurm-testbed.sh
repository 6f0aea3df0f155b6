# shellcheck shell=bash
#
# slurm-testbed.sh -- a real Slurm cluster on this one machine, for tests of sbatch job scripts:
# a private munged, one slurmctld and N slurmd ("nodes" n1..nN, all on this host, each with its
# own port, spool, log and TmpFS). A test fixture, apart from the product (it borrows lib/core's
# processes.sh and ports.sh). Sourced by job-scripts/testbed/jvmreuse-slurm-testbed and by test
# scripts; the caller uses `set -euo pipefail`. Needs Debian's slurm-wlm and munge (installed with
# apt when missing and running as root). See docs/slurm-testbed.md.
#
#   jvmreuse_slurm_init             defaults; JVMREUSE_SLURM_DIR made absolute
#   jvmreuse_slurm_start            installs what is missing, writes the config, starts munged,
#                                   slurmctld and the slurmds, waits until sinfo shows every node
#                                   idle; says so and returns 0 if the testbed already runs;
#                                   on failure stops what it started and returns 1
#   jvmreuse_slurm_stop             cancels the jobs, stops the daemons by PID (TERM, then KILL),
#                                   sweeps leftover job processes; leaves the logs
#   jvmreuse_slurm_status           the daemons, their PIDs, sinfo and squeue; returns 1 unless
#                                   every daemon runs
#   jvmreuse_slurm_env              prints `export SLURM_CONF=...` for clients
#   jvmreuse_slurm_running          whether every daemon of the testbed runs
#
# Layout of the testbed dir D (mode 711, like every dir on the way to the munge socket):
#   D/etc/slurm.conf      the configuration (SLURM_CONF for clients); rewritten at each start
#   D/munge/munge.key     the private munge key (kept between starts); D/munge/run/munge.socket
#                         munged's socket (dir mode 711); D/munge/munged.seed its seed
#   D/state/              slurmctld's StateSaveLocation (cleared at each start: job ids start at 1)
#   D/spool/nX/, D/tmp/nX/  node nX's SlurmdSpoolDir and TmpFS
#   D/log/                slurmctld.log, slurmd-nX.log (the Slurm daemons' own logs) and
#                         <daemon>.out (stdout/stderr; munged, in the foreground, logs only
#                         there); kept by stop
#   D/pids/<daemon>.pid   the PIDs of munged, slurmctld and slurmd-nX
#   D/testbed.env         the settings and ports of the running testbed (read by stop and status)
#
# Settings (environment; testbed/jvmreuse-slurm-testbed sets them from its options):
#   JVMREUSE_SLURM_DIR          the testbed dir D (default /tmp/jvmreuse-slurm-$EUID)
#   JVMREUSE_SLURM_NODES        nodes (default 3)
#   JVMREUSE_SLURM_CPUS         CPUs per node (default: this host's, nproc)
#   JVMREUSE_SLURM_MEMORY_MB    RealMemory per node in MB (default 2048)
#   JVMREUSE_SLURM_MAX_TIME     the partition's MaxTime (default 60, minutes; Slurm's time format)
#   JVMREUSE_SLURM_TIMEOUT      seconds to wait for all nodes to be idle (default 30)
#   JVMREUSE_SLURM_STOP_TIMEOUT seconds a daemon gets after SIGTERM before SIGKILL, and running
#                               jobs get after scancel (default 10)
#   JVMREUSE_SLURM_INSTALL      1 (default): install missing packages with apt as root; 0: never
#
# Every daemon runs with JVMREUSE_SLURM_TESTBED=D in its environment: that tells the testbed's
# processes (and slurmstepd, which slurmd forks) from others without looking at names, and a PID
# in a pid file only counts as the testbed's while its environment says so (stale pid files).
# Job processes carry SLURM_CLUSTER_NAME=<the testbed's cluster name, from D> and SLURM_JOB_ID.

_jvmreuse_slurm_log() { jvmreuse_log jvmreuse-slurm-testbed "$@"; }

# The commands the testbed needs, and the Debian packages they come in.
JVMREUSE_SLURM_COMMANDS=(munged munge unmunge slurmctld slurmd sinfo squeue sbatch srun scancel scontrol)
JVMREUSE_SLURM_PACKAGES=(slurm-wlm munge libpmix2)

# shellcheck source=job-scripts/lib/core/processes.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/core/processes.sh"
# shellcheck source=job-scripts/lib/core/ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/core/ports.sh"

# Whether PID $1 is a running process of this testbed (its environment names D).
_jvmreuse_slurm_owns() {
    [[ $1 =~ ^[1-9][0-9]*$ ]] && _jvmreuse_alive "$1" &&
        grep -qzxF "JVMREUSE_SLURM_TESTBED=$JVMREUSE_SLURM_DIR" "/proc/$1/environ" 2>/dev/null
}

# The settings, with their defaults applied; D made absolute (it need not exist).
jvmreuse_slurm_init() {
    # The daemons live in /usr/sbin, and dpkg needs /usr/sbin and /sbin; a root shell may lack them.
    local sbin
    for sbin in /usr/local/sbin /usr/sbin /sbin; do
        if [[ :$PATH: != *:$sbin:* ]]; then
            PATH=$PATH:$sbin
        fi
    done
    export PATH
    JVMREUSE_SLURM_HOSTS=${JVMREUSE_SLURM_HOSTS:-0}
    if [[ $JVMREUSE_SLURM_HOSTS == 1 ]]; then
        # On the testbed's hosts, whose /tmp is their own: the daemons' files must be shared.
        JVMREUSE_SLURM_DIR=${JVMREUSE_SLURM_DIR:-/var/tmp/jvmreuse-slurm-hosts-$EUID}
    fi
    JVMREUSE_SLURM_DIR=${JVMREUSE_SLURM_DIR:-/tmp/jvmreuse-slurm-$EUID}
    JVMREUSE_SLURM_NODES=${JVMREUSE_SLURM_NODES:-3}
    JVMREUSE_SLURM_CPUS=${JVMREUSE_SLURM_CPUS:-$(nproc)}
    JVMREUSE_SLURM_MEMORY_MB=${JVMREUSE_SLURM_MEMORY_MB:-2048}
    JVMREUSE_SLURM_MAX_TIME=${JVMREUSE_SLURM_MAX_TIME:-60}
    JVMREUSE_SLURM_TIMEOUT=${JVMREUSE_SLURM_TIMEOUT:-30}
    JVMREUSE_SLURM_STOP_TIMEOUT=${JVMREUSE_SLURM_STOP_TIMEOUT:-10}
    JVMREUSE_SLURM_INSTALL=${JVMREUSE_SLURM_INSTALL:-1}
    if [[ $JVMREUSE_SLURM_DIR != /* ]]; then
        JVMREUSE_SLURM_DIR=$PWD/$JVMREUSE_SLURM_DIR
    fi
    if [[ -d $JVMREUSE_SLURM_DIR ]]; then
        JVMREUSE_SLURM_DIR=$(cd "$JVMREUSE_SLURM_DIR" && pwd -P)
    fi
    JVMREUSE_SLURM_DIR=${JVMREUSE_SLURM_DIR%/}
    JVMREUSE_SLURM_CONF=$JVMREUSE_SLURM_DIR/etc/slurm.conf
    export JVMREUSE_SLURM_DIR JVMREUSE_SLURM_CONF JVMREUSE_SLURM_HOSTS
}

# The multi-host testbed's tool (job-scripts/testbed/jvmreuse-hosts).
_jvmreuse_slurm_hosts_tool() {
    printf '%s' "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/jvmreuse-hosts"
}

# On the testbed's hosts: each node nK must be a running host (jvmreuse-hosts start --hosts N),
# and D must not be in a host's own /tmp.
_jvmreuse_slurm_check_hosts() {
    [[ $JVMREUSE_SLURM_HOSTS == 1 ]] || return 0
    local i tool
    tool=$(_jvmreuse_slurm_hosts_tool)
    case $JVMREUSE_SLURM_DIR/ in
        /tmp/*|/dev/shm/*)
            _jvmreuse_slurm_log "ERROR: with --hosts the testbed dir must be outside /tmp and /dev/shm, which each host has of its own (got $JVMREUSE_SLURM_DIR)"
            return 1
            ;;
    esac
    for ((i = 1; i <= JVMREUSE_SLURM_NODES; i++)); do
        if ! "$tool" exec "n$i" true 2>/dev/null; then
            _jvmreuse_slurm_log "ERROR: --hosts needs the testbed host n$i: start $JVMREUSE_SLURM_NODES hosts first ($tool start --hosts $JVMREUSE_SLURM_NODES)"
            return 1
        fi
    done
}

_jvmreuse_slurm_validate() {
    local name option
    for name in JVMREUSE_SLURM_NODES:--nodes JVMREUSE_SLURM_CPUS:--cpus-per-node JVMREUSE_SLURM_MEMORY_MB:--memory-mb \
        JVMREUSE_SLURM_TIMEOUT:--timeout JVMREUSE_SLURM_STOP_TIMEOUT; do
        option=''
        if [[ $name == *:* ]]; then
            option=${name#*:}
            name=${name%%:*}
        fi
        if ! [[ ${!name} =~ ^[1-9][0-9]*$ ]]; then
            _jvmreuse_slurm_log "ERROR: $name${option:+ ($option)} must be a whole number >= 1 (got '${!name}')"
            return 1
        fi
    done
    if ((JVMREUSE_SLURM_NODES > 64)); then
        _jvmreuse_slurm_log "ERROR: at most 64 nodes (got $JVMREUSE_SLURM_NODES)"
        return 1
    fi
    if [[ $JVMREUSE_SLURM_DIR =~ [^A-Za-z0-9_./+-] ]]; then
        _jvmreuse_slurm_log "ERROR: the testbed dir '$JVMREUSE_SLURM_DIR' may only contain letters, digits and _ . / + - (it goes into slurm.conf)"
        return 1
    fi
    # sun_path holds 108 bytes.
    if ((${#JVMREUSE_SLURM_DIR} + 22 > 107)); then
        _jvmreuse_slurm_log "ERROR: the testbed dir '$JVMREUSE_SLURM_DIR' is too long for a Unix socket path under it; choose a shorter --dir"
        return 1
    fi
}

# The cluster name: "jrt" and a checksum of D, so that job processes of two testbeds differ.
_jvmreuse_slurm_cluster_name() {
    local sum
    sum=$(printf '%s' "$JVMREUSE_SLURM_DIR" | cksum)
    printf 'jrt%s' "${sum%% *}"
}

# ---------------------------------------------------------------------------------------------
# Packages

_jvmreuse_slurm_missing() {
    local c
    if command -v dpkg-query >/dev/null 2>&1; then
        for c in "${JVMREUSE_SLURM_PACKAGES[@]}"; do
            if [[ $(dpkg-query -W -f '${Status}' "$c" 2>/dev/null) != "install ok installed" ]]; then
                printf 'package %s\n' "$c"
            fi
        done
    fi
    for c in "${JVMREUSE_SLURM_COMMANDS[@]}"; do
        command -v "$c" >/dev/null 2>&1 || printf '%s\n' "$c"
    done
    if ! compgen -G '/usr/lib/*/slurm-wlm/mpi_pmix*.so' >/dev/null && ! compgen -G '/usr/lib/slurm*/mpi_pmix*.so' >/dev/null; then
        printf '%s\n' "mpi_pmix.so (Slurm's PMIx plugin)"
    fi
    if ! compgen -G '/usr/lib/*/libpmix.so.2*' >/dev/null && ! compgen -G '/usr/lib/*/pmix2/lib/libpmix.so*' >/dev/null; then
        printf '%s\n' "libpmix.so.2 (PMIx)"
    fi
}

# Creates the system user (and group) $1, with uid $2 if given, unless it exists.
_jvmreuse_slurm_system_user() {
    local name=$1 uid=${2:-}
    getent passwd "$name" >/dev/null 2>&1 && return 0
    _jvmreuse_slurm_log "creating the system user $name (as the $name package would)"
    if command -v adduser >/dev/null 2>&1; then
        if [[ -n $uid ]] && ! getent passwd "$uid" >/dev/null 2>&1; then
            adduser --quiet --system --group --uid "$uid" --no-create-home --home /nonexistent "$name" >&2 && return 0
        fi
        adduser --quiet --system --group --no-create-home --home /nonexistent "$name" >&2 && return 0
    fi
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$name" >&2 || {
        _jvmreuse_slurm_log "ERROR: could not create the system user $name"
        return 1
    }
}

# Installs slurm-wlm, munge and libpmix2 with apt-get when something is missing and this is root
# (without starting the packages' system services); otherwise says exactly what is missing.
jvmreuse_slurm_install() {
    local missing=() policy=/usr/sbin/policy-rc.d made_policy=0 status=0
    mapfile -t missing < <(_jvmreuse_slurm_missing)
    ((${#missing[@]} > 0)) || return 0
    local why=''
    if ((EUID != 0)); then
        why="not root"
    elif [[ $JVMREUSE_SLURM_INSTALL != 1 ]]; then
        why="JVMREUSE_SLURM_INSTALL=$JVMREUSE_SLURM_INSTALL"
    elif ! command -v apt-get >/dev/null 2>&1; then
        why="no apt-get"
    fi
    if [[ -n $why ]]; then
        _jvmreuse_slurm_log "ERROR: missing: ${missing[*]}."
        _jvmreuse_slurm_log "  install them as root: apt-get install -y ${JVMREUSE_SLURM_PACKAGES[*]} (not done here: $why)"
        return 1
    fi
    _jvmreuse_slurm_log "missing: ${missing[*]}; installing ${JVMREUSE_SLURM_PACKAGES[*]} with apt-get"
    # The packages' maintainer scripts would start system-wide munged/slurmd/slurmctld; a
    # policy-rc.d that answers 101 keeps them stopped (the testbed runs its own daemons).
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\n# temporary, from jvmreuse-slurm-testbed\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        made_policy=1
    fi
    export DEBIAN_FRONTEND=noninteractive
    # The maintainer scripts of munge and slurm-wlm-basic-plugins decide whether their system user
    # exists with `id -u NAME`; where `id` is not coreutils' (seen: a stub printing 1000), they skip
    # creating it and then fail. Creating the users first, as those scripts would, avoids that.
    _jvmreuse_slurm_system_user munge || status=$?
    _jvmreuse_slurm_system_user slurm 64030 || status=$?
    # A half-configured earlier attempt blocks apt-get install.
    if ((status == 0)) && [[ -n $(dpkg --audit 2>/dev/null) ]]; then
        dpkg --configure -a >&2 || true
    fi
    if ((status == 0)) && ! apt-cache show "${JVMREUSE_SLURM_PACKAGES[0]}" >/dev/null 2>&1; then
        apt-get update -q >&2 || status=$?
    fi
    if ((status == 0)); then
        apt-get install -y -q --no-install-recommends "${JVMREUSE_SLURM_PACKAGES[@]}" >&2 || status=$?
    fi
    if ((made_policy)); then
        rm -f "$policy"
    fi
    if ((status != 0)); then
        _jvmreuse_slurm_log "ERROR: apt-get failed (exit $status) installing ${JVMREUSE_SLURM_PACKAGES[*]}"
        return 1
    fi
    mapfile -t missing < <(_jvmreuse_slurm_missing)
    if ((${#missing[@]} > 0)); then
        _jvmreuse_slurm_log "ERROR: still missing after apt-get install ${JVMREUSE_SLURM_PACKAGES[*]}: ${missing[*]}"
        return 1
    fi
}

# ---------------------------------------------------------------------------------------------
# Ports and configuration

# Sets JVMREUSE_SLURM_PORTS: the slurmctld port, then one per node; free ports from 32000-32767
# (Slurm's defaults are 6817/6818; Linux's ephemeral range starts at 32768), at random.
_jvmreuse_slurm_pick_ports() {
    local n=$((JVMREUSE_SLURM_NODES + 1)) port used=" "
    JVMREUSE_SLURM_PORTS=()
    while ((${#JVMREUSE_SLURM_PORTS[@]} < n)); do
        if ! port=$(jvmreuse_free_port 32000 768 "$used"); then
            _jvmreuse_slurm_log "ERROR: found no free TCP port in 32000-32767"
            return 1
        fi
        used+="$port "
        JVMREUSE_SLURM_PORTS+=("$port")
    done
}

_jvmreuse_slurm_user() {
    getent passwd "$EUID" | cut -d: -f1
}

_jvmreuse_slurm_write_conf() {
    local d=$JVMREUSE_SLURM_DIR host user i
    host=$(hostname -s)
    user=$(_jvmreuse_slurm_user)
    {
        printf '# written by jvmreuse-slurm-testbed at start; changes are lost at the next start\n'
        printf 'ClusterName=%s\n' "$JVMREUSE_SLURM_CLUSTER"
        printf 'SlurmctldHost=%s(%s)\n' "$host" "$(_jvmreuse_slurm_controller_addr)"
        printf 'SlurmctldPort=%s\n' "${JVMREUSE_SLURM_PORTS[0]}"
        printf 'SlurmdPort=%s\n' "${JVMREUSE_SLURM_PORTS[1]}"
        printf 'SlurmUser=%s\nSlurmdUser=%s\n' "$user" "$user"
        cat <<CONF
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/run/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd-%n.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$d/tmp/%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
KillWait=5
InactiveLimit=0
MinJobAge=300
SlurmdTimeout=300
CONF
        for ((i = 1; i <= JVMREUSE_SLURM_NODES; i++)); do
            if [[ $JVMREUSE_SLURM_HOSTS == 1 ]]; then
                # A host of its own: its name and address, and the one slurmd port of every node.
                printf 'NodeName=n%s NodeHostname=n%s NodeAddr=%s.%s CPUs=%s RealMemory=%s State=UNKNOWN\n' \
                    "$i" "$i" "${JVMREUSE_HOSTS_NET:-10.77.0}" "$i" "$JVMREUSE_SLURM_CPUS" "$JVMREUSE_SLURM_MEMORY_MB"
            else
                printf 'NodeName=n%s NodeHostname=%s NodeAddr=127.0.0.1 Port=%s CPUs=%s RealMemory=%s State=UNKNOWN\n' \
                    "$i" "$host" "${JVMREUSE_SLURM_PORTS[i]}" "$JVMREUSE_SLURM_CPUS" "$JVMREUSE_SLURM_MEMORY_MB"
            fi
        done
        printf 'PartitionName=test Nodes=n[1-%s] Default=YES MaxTime=%s State=UP\n' "$JVMREUSE_SLURM_NODES" "$JVMREUSE_SLURM_MAX_TIME"
    } >"$JVMREUSE_SLURM_CONF"
    {
        printf 'TESTBED_NODES=%s\nTESTBED_CPUS=%s\nTESTBED_MEMORY_MB=%s\nTESTBED_CLUSTER=%s\n' "$JVMREUSE_SLURM_NODES" \
            "$JVMREUSE_SLURM_CPUS" "$JVMREUSE_SLURM_MEMORY_MB" "$JVMREUSE_SLURM_CLUSTER"
        printf 'TESTBED_PORTS="%s"\n' "${JVMREUSE_SLURM_PORTS[*]}"
    } >"$d/testbed.env"
}

# Where slurmctld is reached: this machine's address on the hosts' bridge, else loopback.
_jvmreuse_slurm_controller_addr() {
    if [[ $JVMREUSE_SLURM_HOSTS == 1 ]]; then
        printf '%s.254' "${JVMREUSE_HOSTS_NET:-10.77.0}"
    else
        printf '127.0.0.1'
    fi
}

# Reads D/testbed.env (nodes and cluster name of the testbed that runs or ran in D).
_jvmreuse_slurm_read_env() {
    TESTBED_NODES='' TESTBED_CLUSTER=''
    if [[ -f $JVMREUSE_SLURM_DIR/testbed.env ]]; then
        # shellcheck source=/dev/null
        source "$JVMREUSE_SLURM_DIR/testbed.env"
    fi
    TESTBED_CLUSTER=${TESTBED_CLUSTER:-$(_jvmreuse_slurm_cluster_name)}
}

# The pid files of the testbed's daemons, slurmds first.
_jvmreuse_slurm_pid_files() {
    local f
    for f in "$JVMREUSE_SLURM_DIR"/pids/slurmd-*.pid "$JVMREUSE_SLURM_DIR/pids/slurmctld.pid" "$JVMREUSE_SLURM_DIR/pids/munged.pid"; do
        [[ -f $f ]] && printf '%s\n' "$f"
    done
    return 0
}

# ---------------------------------------------------------------------------------------------
# Start

# Starts daemon $1 (its name, for D/pids/$1.pid and D/log/$1.out) as the command $2...; in its own
# session, with the testbed's mark in its environment.
_jvmreuse_slurm_launch() {
    local name=$1 d=$JVMREUSE_SLURM_DIR launcher=() pid
    shift
    # Without job control a background job is no process group leader, so setsid execs in place
    # and $! is the daemon's PID.
    if [[ $- != *m* ]] && command -v setsid >/dev/null 2>&1; then
        launcher=(setsid)
    fi
    JVMREUSE_SLURM_TESTBED=$d SLURM_CONF=$JVMREUSE_SLURM_CONF ${launcher[@]+"${launcher[@]}"} "$@" \
        </dev/null >>"$d/log/$name.out" 2>&1 &
    pid=$!
    printf '%s\n' "$pid" >"$d/pids/$name.pid"
    JVMREUSE_SLURM_STARTED+=("$name")
}

# Fails (naming the log) if daemon $1 is no longer running.
_jvmreuse_slurm_check_daemon() {
    local name=$1 log=$2 pid
    pid=$(cat "$JVMREUSE_SLURM_DIR/pids/$name.pid" 2>/dev/null || true)
    local out=$JVMREUSE_SLURM_DIR/log/$name.out
    if ! _jvmreuse_slurm_owns "$pid"; then
        if [[ $log == "$out" ]]; then
            _jvmreuse_slurm_log "ERROR: $name exited during start-up; see $log. Its end:"
        else
            _jvmreuse_slurm_log "ERROR: $name exited during start-up; see $log and $out. Their ends:"
            tail -n 10 "$log" >&2 2>/dev/null || true
        fi
        tail -n 5 "$out" >&2 2>/dev/null || true
        return 1
    fi
}

# Creates the dirs: D and the munge socket dir mode 711; the parents of D must be o+x.
_jvmreuse_slurm_make_dirs() {
    local d=$JVMREUSE_SLURM_DIR p i
    mkdir -p "$d" || { _jvmreuse_slurm_log "ERROR: cannot create the testbed dir $d"; return 1; }
    JVMREUSE_SLURM_DIR=$(cd "$d" && pwd -P)
    JVMREUSE_SLURM_CONF=$JVMREUSE_SLURM_DIR/etc/slurm.conf
    d=$JVMREUSE_SLURM_DIR
    mkdir -p "$d"/{etc,munge/run,state,run,log,pids}
    rm -rf "$d/state" && mkdir -p "$d/state"
    for ((i = 1; i <= JVMREUSE_SLURM_NODES; i++)); do
        mkdir -p "$d/spool/n$i" "$d/tmp/n$i"
    done
    chmod 711 "$d" "$d/munge" "$d/munge/run"
    chmod 1777 "$d/tmp"/n*
    p=$(dirname "$d")
    while [[ $p != / ]]; do
        if ! (((8#$(stat -c %a "$p") & 1) == 1)); then
            _jvmreuse_slurm_log "ERROR: $p is not searchable by others (o+x); munge clients of other users could not reach the socket under it: chmod o+x $p or choose another --dir"
            return 1
        fi
        p=$(dirname "$p")
    done
}

_jvmreuse_slurm_start_munged() {
    local d=$JVMREUSE_SLURM_DIR deadline=$((SECONDS + JVMREUSE_SLURM_TIMEOUT))
    if [[ ! -s $d/munge/munge.key ]]; then
        (umask 077 && dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none)
    fi
    chmod 400 "$d/munge/munge.key"
    rm -f "$d/munge/run/munge.socket" "$d/munge/run/munge.socket.lock"
    _jvmreuse_slurm_launch munged munged --foreground --force --socket="$d/munge/run/munge.socket" \
        --key-file="$d/munge/munge.key" --pid-file="$d/run/munged.pid" \
        --seed-file="$d/munge/munged.seed"
    until munge -n -S "$d/munge/run/munge.socket" 2>/dev/null | unmunge -S "$d/munge/run/munge.socket" >/dev/null 2>&1; do
        _jvmreuse_slurm_check_daemon munged "$d/log/munged.out" || return 1
        if ((SECONDS >= deadline)); then
            _jvmreuse_slurm_log "ERROR: munged did not answer on $d/munge/run/munge.socket within ${JVMREUSE_SLURM_TIMEOUT}s; see $d/log/munged.out"
            return 1
        fi
        sleep 0.1
    done
}

# The nodes sinfo shows idle (one per line).
_jvmreuse_slurm_idle_nodes() {
    SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 == "idle" { print $1 }' | sort -u
}

jvmreuse_slurm_start() {
    local d i deadline idle=() t0 dead=()
    t0=${EPOCHREALTIME:-$(date +%s)}
    _jvmreuse_slurm_validate || return 1
    if jvmreuse_slurm_running; then
        _jvmreuse_slurm_log "already running in $JVMREUSE_SLURM_DIR (pids: $(cat "$JVMREUSE_SLURM_DIR"/pids/*.pid | tr '\n' ' '))"
        jvmreuse_slurm_env
        return 0
    fi
    if [[ -d $JVMREUSE_SLURM_DIR/pids ]]; then
        mapfile -t dead < <(_jvmreuse_slurm_pid_files)
        if ((${#dead[@]} > 0)); then
            _jvmreuse_slurm_log "a testbed in $JVMREUSE_SLURM_DIR is partly running or left stale pid files; stopping what is left first"
            jvmreuse_slurm_stop || return 1
        fi
    fi
    jvmreuse_slurm_install || return 1
    _jvmreuse_slurm_check_hosts || return 1
    _jvmreuse_slurm_make_dirs || return 1
    d=$JVMREUSE_SLURM_DIR
    JVMREUSE_SLURM_CLUSTER=$(_jvmreuse_slurm_cluster_name)
    _jvmreuse_slurm_pick_ports || return 1
    _jvmreuse_slurm_write_conf
    JVMREUSE_SLURM_STARTED=()
    _jvmreuse_slurm_start_munged || { jvmreuse_slurm_stop; return 1; }
    deadline=$((SECONDS + JVMREUSE_SLURM_TIMEOUT))
    _jvmreuse_slurm_launch slurmctld slurmctld -D -c -f "$JVMREUSE_SLURM_CONF"
    for ((i = 1; i <= JVMREUSE_SLURM_NODES; i++)); do
        if [[ $JVMREUSE_SLURM_HOSTS == 1 ]]; then
            # nsenter execs slurmd in place: the recorded PID is the daemon's.
            _jvmreuse_slurm_launch "slurmd-n$i" "$(_jvmreuse_slurm_hosts_tool)" exec "n$i" slurmd -D -N "n$i" -f "$JVMREUSE_SLURM_CONF"
        else
            _jvmreuse_slurm_launch "slurmd-n$i" slurmd -D -N "n$i" -f "$JVMREUSE_SLURM_CONF"
        fi
    done
    while :; do
        mapfile -t idle < <(_jvmreuse_slurm_idle_nodes)
        ((${#idle[@]} < JVMREUSE_SLURM_NODES)) || break
        _jvmreuse_slurm_check_daemon slurmctld "$d/log/slurmctld.log" || { jvmreuse_slurm_stop; return 1; }
        for ((i = 1; i <= JVMREUSE_SLURM_NODES; i++)); do
            _jvmreuse_slurm_check_daemon "slurmd-n$i" "$d/log/slurmd-n$i.log" || { jvmreuse_slurm_stop; return 1; }
        done
        if ((SECONDS >= deadline)); then
            _jvmreuse_slurm_log "ERROR: not all $JVMREUSE_SLURM_NODES nodes were idle after ${JVMREUSE_SLURM_TIMEOUT}s" \
                "(idle: ${idle[*]:-none}); see $d/log/slurmctld.log and $d/log/slurmd-n*.log. sinfo says:"
            SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 sinfo -N -l >&2 2>&1 || true
            tail -n 10 "$d/log/slurmctld.log" >&2 2>/dev/null || true
            jvmreuse_slurm_stop
            return 1
        fi
        sleep 0.1
    done
    local took=''
    if [[ -n ${EPOCHREALTIME:-} ]]; then
        took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf " in %.1f s", b - a }')
    fi
    _jvmreuse_slurm_log "ready$took: $JVMREUSE_SLURM_NODES nodes (n1..n$JVMREUSE_SLURM_NODES, $JVMREUSE_SLURM_CPUS CPUs each)," \
        "slurmctld on $(_jvmreuse_slurm_controller_addr):${JVMREUSE_SLURM_PORTS[0]}, logs in $d/log"
    jvmreuse_slurm_env
}

# ---------------------------------------------------------------------------------------------
# Stop

# SIGTERM to the testbed processes in the given pid files, up to JVMREUSE_SLURM_STOP_TIMEOUT s,
# then SIGKILL to the survivors by PID. Removes the files.
_jvmreuse_slurm_stop_pids() {
    jvmreuse_stop_pid_files "$JVMREUSE_SLURM_STOP_TIMEOUT" _jvmreuse_slurm_log _jvmreuse_slurm_owns "$@"
}

# Cancels every job of the testbed and waits (up to JVMREUSE_SLURM_STOP_TIMEOUT + KillWait s) until
# squeue shows none. Needs slurmctld.
_jvmreuse_slurm_cancel_jobs() {
    local jobs=() waited=0 limit
    mapfile -t jobs < <(SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 squeue -h -o '%A' 2>/dev/null)
    ((${#jobs[@]} > 0)) || return 0
    _jvmreuse_slurm_log "cancelling jobs: ${jobs[*]}"
    SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 scancel "${jobs[@]}" 2>/dev/null || true
    limit=$(((JVMREUSE_SLURM_STOP_TIMEOUT + 5) * 10))
    while [[ -n $(SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 squeue -h -o '%A' 2>/dev/null) ]]; do
        if ((waited >= limit)); then
            _jvmreuse_slurm_log "jobs still listed $((limit / 10))s after scancel; their processes will be swept"
            return 0
        fi
        sleep 0.2
        waited=$((waited + 2))
    done
}

# What marks the testbed's leftover processes (processes.sh's jvmreuse_leftovers, every user's):
# JVMREUSE_SLURM_TESTBED=D in the environment (daemons, slurmstepd), job processes (SLURM_JOB_ID
# and this testbed's SLURM_CLUSTER_NAME in the environment, including those a job left behind
# with setsid/nohup/&), a command line that names a path in D, and, without a terminal, a
# working directory in D. Sets JVMREUSE_SLURM_MARKS.
_jvmreuse_slurm_marks() {
    local d=$JVMREUSE_SLURM_DIR
    _jvmreuse_slurm_read_env
    JVMREUSE_SLURM_MARKS=(--any-user "env:JVMREUSE_SLURM_TESTBED=$d"
        "env+SLURM_JOB_ID:SLURM_CLUSTER_NAME=$TESTBED_CLUSTER" "arg:$d" "cwd-notty:$d")
}

# The PIDs of the testbed's leftover processes, found in /proc (never by name); never this shell,
# its ancestors or its session.
jvmreuse_slurm_leftovers() {
    _jvmreuse_slurm_marks
    jvmreuse_leftovers "${JVMREUSE_SLURM_MARKS[@]}"
}

# Ends the testbed's leftover processes by PID: SIGTERM, up to 3 s, then SIGKILL; fails if any
# is still there.
_jvmreuse_slurm_sweep() {
    local pids=()
    _jvmreuse_slurm_marks
    jvmreuse_sweep 3 _jvmreuse_slurm_log "$JVMREUSE_SLURM_DIR" "${JVMREUSE_SLURM_MARKS[@]}"
    ((${#JVMREUSE_SWEPT[@]} > 0)) || return 0
    sleep 0.2
    mapfile -t pids < <(jvmreuse_leftovers "${JVMREUSE_SLURM_MARKS[@]}")
    if ((${#pids[@]} > 0)); then
        _jvmreuse_slurm_log "ERROR: processes of $JVMREUSE_SLURM_DIR survived SIGKILL: pid ${pids[*]}"
        return 1
    fi
}

# Stops the testbed in JVMREUSE_SLURM_DIR: cancels its jobs, stops the slurmds, slurmctld and
# munged by PID, then ends leftover processes. Logs stay.
jvmreuse_slurm_stop() {
    local d=$JVMREUSE_SLURM_DIR ctld
    if [[ ! -d $d/pids ]]; then
        _jvmreuse_slurm_log "no Slurm testbed in $d"
        _jvmreuse_slurm_sweep
        return
    fi
    ctld=$(cat "$d/pids/slurmctld.pid" 2>/dev/null || true)
    if _jvmreuse_slurm_owns "$ctld"; then
        _jvmreuse_slurm_cancel_jobs
    fi
    _jvmreuse_slurm_stop_pids "$d"/pids/slurmd-*.pid
    _jvmreuse_slurm_stop_pids "$d/pids/slurmctld.pid"
    _jvmreuse_slurm_stop_pids "$d/pids/munged.pid"
    _jvmreuse_slurm_stop_pids "$d"/pids/*.pid
    _jvmreuse_slurm_sweep || return 1
    _jvmreuse_slurm_log "stopped $d (logs in $d/log)"
}

# ---------------------------------------------------------------------------------------------
# Status and environment

# Whether every daemon of the testbed runs (munged, slurmctld and the slurmds of testbed.env).
jvmreuse_slurm_running() {
    local d=$JVMREUSE_SLURM_DIR i
    _jvmreuse_slurm_read_env
    [[ -n $TESTBED_NODES ]] || return 1
    _jvmreuse_slurm_owns "$(cat "$d/pids/munged.pid" 2>/dev/null || true)" || return 1
    _jvmreuse_slurm_owns "$(cat "$d/pids/slurmctld.pid" 2>/dev/null || true)" || return 1
    for ((i = 1; i <= TESTBED_NODES; i++)); do
        _jvmreuse_slurm_owns "$(cat "$d/pids/slurmd-n$i.pid" 2>/dev/null || true)" || return 1
    done
}

jvmreuse_slurm_env() {
    printf 'export SLURM_CONF=%s\n' "$JVMREUSE_SLURM_CONF"
    if ! command -v sbatch >/dev/null 2>&1 && [[ -x /usr/bin/sbatch ]]; then
        # shellcheck disable=SC2016 # $PATH is for the shell that evaluates this
        printf 'export PATH=/usr/bin:$PATH\n'
    fi
}

# Prints the daemons (PID, running or not), sinfo and squeue; returns 1 unless every daemon runs.
jvmreuse_slurm_status() {
    local d=$JVMREUSE_SLURM_DIR
    if [[ ! -f $d/testbed.env ]]; then
        printf 'no Slurm testbed in %s\n' "$d"
        return 1
    fi
    _jvmreuse_slurm_read_env
    printf 'Slurm testbed %s: %s nodes, cluster %s, SLURM_CONF=%s\n' "$d" "$TESTBED_NODES" "$TESTBED_CLUSTER" "$JVMREUSE_SLURM_CONF"
    if ! jvmreuse_pid_file_states _jvmreuse_slurm_owns 12 < <(_jvmreuse_slurm_pid_files); then
        printf '  not running (logs in %s/log)\n' "$d"
        return 1
    fi
    if _jvmreuse_slurm_owns "$(cat "$d/pids/slurmctld.pid" 2>/dev/null || true)"; then
        SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 sinfo -N -o '%N %P %T %c %m' 2>&1 | sed 's/^/  /' || true
        SLURM_CONF=$JVMREUSE_SLURM_CONF timeout 10 squeue 2>&1 | sed 's/^/  /' || true
    fi
    if ! jvmreuse_slurm_running; then
        printf '  PARTLY running: a daemon is dead (logs in %s/log); start restarts the testbed\n' "$d"
        return 1
    fi
    return 0
}
