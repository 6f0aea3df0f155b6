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
