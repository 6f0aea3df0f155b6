# shellcheck shell=bash
#
# processes.sh -- liveness, /proc and stopping by PID, for the libraries that start daemons (pool.sh,
# cluster/local-cluster.sh, batch/hpc-job.sh, batch/hpc-node.sh, and the Slurm testbed's
# job-scripts/testbed/lib/slurm-testbed.sh). Sourced; callers use `set -euo pipefail`.
#
#   _jvmreuse_alive PID                  whether PID runs (an exited, unreaped zombie does not:
#                                        this machine's init reaps reparented children late)
#   jvmreuse_terminate SECONDS LOG PID...  SIGTERM to the PIDs, wait up to SECONDS for all of them,
#                                        then SIGKILL to the survivors; LOG is a function that
#                                        reports the SIGKILL
#   jvmreuse_stop_pid_files SECONDS LOG OWNS FILE...
#                                        jvmreuse_terminate for the PIDs in the pid files FILE for
#                                        which the function OWNS PID succeeds; removes the files
#   jvmreuse_stat_field PID state|ppid|sid|tty   a field of /proc/PID/stat (builtins only)
#   jvmreuse_protected_pids              " PID PID ... ": this shell, its ancestors and $$, which a
#                                        search for leftover processes must never end

# shellcheck source=job-scripts/lib/core/log.sh
source "$(dirname "${BASH_SOURCE[0]}")/log.sh"

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

jvmreuse_stop_pid_files() {
    local timeout=$1 log=$2 owns=$3 f pid pids=()
    shift 3
    for f in "$@"; do
        [[ -f $f ]] || continue
        pid=$(cat "$f" 2>/dev/null || true)
        if "$owns" "$pid"; then
            pids+=("$pid")
        fi
    done
    jvmreuse_terminate "$timeout" "$log" ${pids[@]+"${pids[@]}"}
    rm -f "$@"
}

jvmreuse_stat_field() {
    local stat state ppid sid tty
    read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    read -r state ppid _ sid tty _ <<<"${stat##*) }" # the fields follow the command name, which may hold spaces
    case $2 in
        ppid) printf '%s' "$ppid" ;;
        sid) printf '%s' "$sid" ;;
        tty) printf '%s' "$tty" ;;
        *) printf '%s' "$state" ;;
    esac
}

jvmreuse_protected_pids() {
    local p=$BASHPID skip=" "
    while [[ $p =~ ^[0-9]+$ && $p -gt 1 ]]; do
        skip+="$p "
        p=$(jvmreuse_stat_field "$p" ppid || echo 0)
    done
    printf '%s%s ' "$skip" "$$"
}

# Prints, for each pid file named on stdin, "  NAME pid PID running|DEAD" (NAME: the file's name
# without .pid, in a column $2 wide), where $1 is a function that says whether a PID is alive and
# ours. Returns 0 if any runs.
jvmreuse_pid_file_states() {
    local owns=$1 width=$2 f name pid state any=1
    while IFS= read -r f; do
        name=${f##*/}
        name=${name%.pid}
        pid=$(cat "$f" 2>/dev/null || true)
        state=DEAD
        if "$owns" "$pid"; then
            state=running
            any=0
        fi
        printf "  %-${width}s pid %-8s %s\n" "$name" "$pid" "$state"
    done
    return "$any"
}
