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
#   jvmreuse_live_pids FILE...           the PIDs in the pid files FILE that run, one a line
#   jvmreuse_stat_field PID state|ppid|sid|tty   a field of /proc/PID/stat (builtins only)
#   jvmreuse_protected_pids              " PID PID ... ": this shell, its ancestors and $$, which a
#                                        search for leftover processes must never end
#   jvmreuse_leftovers [--any-user] MARK...
#                                        the one search for leftover processes, found in /proc,
#                                        never by name: the PIDs (ascending, one a line) of running
#                                        processes that carry any MARK, but never this shell, its
#                                        ancestors, $$ (jvmreuse_protected_pids) or a process of this
#                                        shell's session (the caller, its pipeline, its terminal);
#                                        this user's processes only, unless --any-user. A MARK is
#                                          env:NAME=VALUE      the environment holds this entry
#                                          env+SET:NAME=VALUE  the same, and SET is set (any value)
#                                          arg:DIR             an argument of the command line is DIR
#                                                              or a path in it, alone, after = or :,
#                                                              or in a URI (file://DIR/...)
#                                          cwd:DIR             the working directory is DIR or in it
#                                          cwd-notty:DIR       the same, without a controlling terminal
#                                        Environments and command lines are read with one grep over
#                                        all /proc/*/environ (cmdline), working directories with one
#                                        find: a few forks, whatever runs (scancel leaves seconds).
#   jvmreuse_sweep SECONDS LOG WHAT [--any-user] MARK...
#                                        ends those processes by PID: LOG "ending leftover processes
#                                        of WHAT: pid PID (name) ...", then jvmreuse_terminate SECONDS
#                                        LOG (SECONDS 0: SIGKILL at once); sets JVMREUSE_SWEPT to the
#                                        PIDs it ended (empty: none were left)

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

jvmreuse_live_pids() {
    local f pid
    for f in "$@"; do
        [[ -f $f ]] || continue
        pid=$(cat "$f" 2>/dev/null || true)
        if [[ $pid =~ ^[0-9]+$ ]] && _jvmreuse_alive "$pid"; then
            printf '%s\n' "$pid"
        fi
    done
    return 0
}

jvmreuse_leftovers() {
    local any_user=0 mark kind value f pid a d cwd tty sid mysid skip i candidates=" " args=()
    local entries=() with=() with_entries=() arg_dirs=() cwd_dirs=() notty_dirs=()
    if [[ ${1:-} == --any-user ]]; then
        any_user=1
        shift
    fi
    for mark in "$@"; do
        kind=${mark%%:*} value=${mark#*:}
        if [[ $mark != *:* || ($kind != env* && -z $value) ]]; then
            jvmreuse_log jvmreuse "ERROR: jvmreuse_leftovers: not a mark: '$mark'"
            return 2
        fi
        case $kind in
            env) entries+=(-e "$value") ;;
            env+*)
                if ! [[ ${kind#env+} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
                    jvmreuse_log jvmreuse "ERROR: jvmreuse_leftovers: not a variable name in '$mark'"
                    return 2
                fi
                with+=("${kind#env+}")
                with_entries+=("$value")
                ;;
            arg) arg_dirs+=("$value") ;;
            cwd) cwd_dirs+=("$value") ;;
            cwd-notty) notty_dirs+=("$value") ;;
            *)
                jvmreuse_log jvmreuse "ERROR: jvmreuse_leftovers: unknown mark '$mark'"
                return 2
                ;;
        esac
    done
    # Environment entries (grep -z reads each NUL-separated entry as a line).
    if ((${#entries[@]} > 0)); then
        while IFS= read -r f; do
            pid=${f#/proc/}
            candidates+="${pid%/environ} "
        done < <(grep -lzxF "${entries[@]}" /proc/[0-9]*/environ 2>/dev/null || true)
    fi
    for i in "${!with[@]}"; do
        while IFS= read -r f; do
            if grep -qz "^${with[i]}=" "$f" 2>/dev/null; then
                pid=${f#/proc/}
                candidates+="${pid%/environ} "
            fi
        done < <(grep -lzxF -e "${with_entries[i]}" /proc/[0-9]*/environ 2>/dev/null || true)
    done
    # Command lines naming DIR or a path in it.
    for d in ${arg_dirs[@]+"${arg_dirs[@]}"}; do
        while IFS= read -r f; do
            pid=${f#/proc/}
            pid=${pid%/cmdline}
            mapfile -d '' args 2>/dev/null <"$f" || continue
            for a in ${args[@]+"${args[@]}"}; do
                if [[ $a == "$d" || $a == "$d"/* || $a == *[=:]"$d" || $a == *[=:]"$d"/* || $a == *://"$d" ||
                    $a == *://"$d"/* ]]; then
                    candidates+="$pid "
                    break
                fi
            done
        done < <(grep -lzF -e "$d" /proc/[0-9]*/cmdline 2>/dev/null || true)
    done
    # Working directories.
    if ((${#cwd_dirs[@]} + ${#notty_dirs[@]} > 0)); then
        while IFS=$'\t' read -r f cwd; do
            pid=${f#/proc/}
            pid=${pid%/cwd}
            for d in ${cwd_dirs[@]+"${cwd_dirs[@]}"}; do
                if [[ $cwd == "$d" || $cwd == "$d"/* ]]; then
                    candidates+="$pid "
                    continue 2
                fi
            done
            for d in ${notty_dirs[@]+"${notty_dirs[@]}"}; do
                if [[ $cwd == "$d" || $cwd == "$d"/* ]] && tty=$(jvmreuse_stat_field "$pid" tty) && [[ $tty == 0 ]]; then
                    candidates+="$pid "
                    continue 2
                fi
            done
        done < <(find /proc/[0-9]*/cwd -maxdepth 0 -printf '%p\t%l\n' 2>/dev/null || true)
    fi
    [[ $candidates != " " ]] || return 0
    mysid=$(jvmreuse_stat_field "$BASHPID" sid || echo 0)
    skip=$(jvmreuse_protected_pids)
    for pid in $candidates; do
        [[ $pid =~ ^[0-9]+$ && $skip != *" $pid "* ]] || continue
        ((any_user)) || [[ -O /proc/$pid ]] || continue
        _jvmreuse_alive "$pid" || continue
        sid=$(jvmreuse_stat_field "$pid" sid) || continue
        [[ $sid != "$mysid" ]] || continue
        printf '%s\n' "$pid"
    done | sort -un
}

jvmreuse_sweep() {
    local timeout=$1 log=$2 what=$3 pid comm named=()
    shift 3
    JVMREUSE_SWEPT=()
    mapfile -t JVMREUSE_SWEPT < <(jvmreuse_leftovers "$@")
    ((${#JVMREUSE_SWEPT[@]} > 0)) || return 0
    for pid in "${JVMREUSE_SWEPT[@]}"; do
        comm='?'
        read -r comm 2>/dev/null <"/proc/$pid/comm" || true
        named+=("$pid ($comm)")
    done
    "$log" "ending leftover processes of $what: pid ${named[*]}"
    if ((timeout == 0)); then
        kill -KILL "${JVMREUSE_SWEPT[@]}" 2>/dev/null || true
    else
        jvmreuse_terminate "$timeout" "$log" "${JVMREUSE_SWEPT[@]}"
    fi
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
