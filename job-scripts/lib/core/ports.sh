# shellcheck shell=bash
#
# ports.sh -- TCP ports on this host, for the libraries that start daemons (cluster/local-cluster.sh,
# batch/hpc-job.sh, and the Slurm testbed's job-scripts/testbed/lib/slurm-testbed.sh). Sourced;
# callers use `set -euo pipefail`.
#
#   jvmreuse_port_busy PORT              whether something uses PORT (listening, connected, TIME_WAIT)
#   jvmreuse_port_open PORT              whether 127.0.0.1:PORT accepts connections
#   jvmreuse_free_port LOW SPAN USED     prints a random port of LOW..LOW+SPAN-1 that nothing uses and
#                                        that is not in USED (" p1 p2 ... "); returns 1 if it finds none
#   jvmreuse_port_block SEED NODES [BASE]  the one port scheme of a cluster (below): sets
#                                        JVMREUSE_PORT_BLOCK to a base whose block for NODES nodes is
#                                        free on this host, the first one tried from SEED (a job id, so
#                                        a job gets the same ports; $RANDOM, so clusters started one
#                                        after the other do not meet a port in TIME_WAIT), else
#                                        further on (20 tries); only BASE if given. Returns 1 with
#                                        JVMREUSE_PORT_BUSY set to a busy port of the last block tried
#   jvmreuse_port BASE NAME [NODE]       the port of service NAME: the master's, or node NODE's
#
# A cluster's ports are one block from a base: the master's services (JVMREUSE_MASTER_PORTS) at
# BASE+0.., node i's (JVMREUSE_NODE_PORTS) at BASE+10*i+0..; several nodes may share a host (the
# one-machine cluster's NodeManagers, the Slurm testbed's nodes), so each has its own. Bases lie in
# 20000-29599, below Linux's ephemeral range; a block of 100 nodes ends before 30600.
JVMREUSE_MASTER_PORTS=(rm rm_scheduler rm_tracker rm_admin rm_web jhs jhs_web nn nn_http)
JVMREUSE_NODE_PORTS=(nm nm_localizer nm_web nm_shuffle dn dn_http dn_ipc)

jvmreuse_port_busy() {
    if command -v ss >/dev/null 2>&1; then
        [[ -n $(ss -Htan "( sport = :$1 )" 2>/dev/null) ]]
    else
        jvmreuse_port_open "$1"
    fi
}

jvmreuse_port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# At random, so daemons started one after the other do not meet a port in TIME_WAIT.
jvmreuse_free_port() {
    local low=$1 span=$2 used=$3 port i
    for ((i = 0; i <= 2000; i++)); do
        port=$((low + (RANDOM * 32768 + RANDOM) % span))
        if [[ $used != *" $port "* ]] && ! jvmreuse_port_busy "$port"; then
            printf '%s' "$port"
            return 0
        fi
    done
    return 1
}

jvmreuse_port_block() {
    local seed=$1 nodes=$2 base=${3:-} tries=0 i j
    seed=${seed//[^0-9]/}
    seed=${seed:-$$}
    ((${#seed} <= 6)) || seed=${seed: -6}
    [[ -n $base ]] || base=$((20000 + ((10#$seed * 97) % 800) * 12))
    while :; do
        JVMREUSE_PORT_BUSY=
        for ((i = 0; i <= nodes && i <= 100; i++)); do
            for ((j = 0; j < ${#JVMREUSE_MASTER_PORTS[@]}; j++)); do
                if jvmreuse_port_busy $((base + 10 * i + j)); then
                    JVMREUSE_PORT_BUSY=$((base + 10 * i + j))
                    break 2
                fi
            done
        done
        if [[ -z $JVMREUSE_PORT_BUSY ]]; then
            # shellcheck disable=SC2034 # the caller's result
            JVMREUSE_PORT_BLOCK=$base
            return 0
        fi
        if [[ -n ${3:-} ]] || ((++tries > 20)); then
            return 1
        fi
        base=$((20000 + (base - 20000 + 1213) % 9600))
    done
}

jvmreuse_port() {
    local base=$1 name=$2 node=${3:-} k
    if [[ -z $node ]]; then
        for k in "${!JVMREUSE_MASTER_PORTS[@]}"; do
            [[ ${JVMREUSE_MASTER_PORTS[k]} == "$name" ]] && { printf '%s' $((base + k)); return 0; }
        done
    else
        for k in "${!JVMREUSE_NODE_PORTS[@]}"; do
            [[ ${JVMREUSE_NODE_PORTS[k]} == "$name" ]] && { printf '%s' $((base + 10 * ((node - 1) % 100 + 1) + k)); return 0; }
        done
    fi
    return 1
}
