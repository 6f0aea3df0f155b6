# shellcheck shell=bash
#
# processes.sh -- liveness and stopping by PID, for the libraries that start daemons (pool.sh,
# hadoop-cluster.sh, slurm-testbed.sh, hpc-node.sh). Sourced; callers use `set -euo pipefail`.
#
#   _jvmreuse_alive PID                  whether PID runs (an exited, unreaped zombie does not:
#                                        this machine's init reaps reparented children late)
#   jvmreuse_terminate SECONDS LOG PID...  SIGTERM to the PIDs, wait up to SECONDS for all of them,
#                                        then SIGKILL to the survivors; LOG is a function that
#                                        reports the SIGKILL

_jvmreuse_alive() {
    local stat
    read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    stat=${stat##*) } # the state follows the command name, which may hold spaces
    [[ -n $stat && ${stat:0:1} != Z ]]
}

jvmreuse_terminate() {
    local timeout=$1 log=$2 pid alive waited=0
    shift 2
    local pids=("$@")
    ((${#pids[@]} > 0)) || return 0
    kill -TERM "${pids[@]}" 2>/dev/null || true
    while :; do
        alive=()
        for pid in "${pids[@]}"; do
            if _jvmreuse_alive "$pid"; then
                alive+=("$pid")
            fi
        done
        ((${#alive[@]} > 0)) || return 0
        if ((waited >= timeout * 10)); then
            "$log" "still running ${timeout}s after SIGTERM, sending SIGKILL: pid ${alive[*]}"
            kill -KILL "${alive[@]}" 2>/dev/null || true
            return 0
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
}
