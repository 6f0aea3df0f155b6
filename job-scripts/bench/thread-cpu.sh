#!/usr/bin/env bash
# thread-cpu.sh -- where the CPU time of the JVMs on this machine goes, per thread name, over a
# time window (used by terasort-shuffle.sh with THREAD_CPU=1 for each reducer shuffle phase).
#   thread-cpu.sh sample OUT [INTERVAL]
#       every INTERVAL seconds (default 0.25) appends one line per thread of every process named
#       `java` of this user: "epoch_seconds pid tid name cpu_ticks" (utime + stime from
#       /proc/<pid>/task/<tid>/stat); runs until stopped. A pass forks one awk, whatever the
#       number of threads, so it stays short on a loaded machine. With MATCH set, only the
#       processes whose command line contains that string (a cluster's directory: its daemons,
#       pools and task JVMs name it), so that JVMs of other work on the machine do not count.
#   thread-cpu.sh sum SAMPLES FROM_MS TO_MS
#       CPU seconds each thread name used between two epoch times in milliseconds (digits in
#       names become #, so "fetcher#3" and "fetcher#5" add up): "seconds name" lines, largest
#       first, the first one being "total".
#       Exact to one sampling interval: a thread born or ended inside the window counts from its
#       first or to its last sample.
#
# Example: MATCH=/tmp/my-cluster job-scripts/bench/thread-cpu.sh sample /tmp/cpu.txt & ...; kill $!
#          job-scripts/bench/thread-cpu.sh sum /tmp/cpu.txt 1700000000000 1700000060000
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

usage() {
    echo "usage: thread-cpu.sh sample OUT [INTERVAL] | sum SAMPLES FROM_MS TO_MS" >&2
    exit 2
}

sample() {
    local out=$1 interval=${2:-0.25} match=${MATCH:-} proc comm cmdline
    local -a stats
    local -A verdict=() # /proc/PID -> 1 (sampled) or 0, decided once per JVM
    [[ $interval =~ ^[0-9]*\.?[0-9]+$ ]] || usage
    exec 3>>"$out"
    while :; do
        stats=()
        for proc in /proc/[0-9]*; do
            if [[ -z ${verdict[$proc]:-} ]]; then
                # decided once a process is a JVM (before its exec it may still be a shell)
                read -r comm 2>/dev/null <"$proc/comm" || continue
                [[ $comm == java && -O $proc ]] || continue
                verdict[$proc]=1
                if [[ -n $match ]]; then
                    cmdline=$(tr '\0' ' ' 2>/dev/null <"$proc/cmdline") || continue
                    [[ $cmdline == *"$match"* ]] || verdict[$proc]=0
                fi
            fi
            if ((verdict[$proc])); then
                stats+=("$proc"/task/*/stat)
            fi
        done
        # One awk reads every thread's stat of this pass (a pass takes milliseconds, not seconds).
        if ((${#stats[@]})); then
            awk -v now="$EPOCHREALTIME" '
                FNR == 1 {
                    # "tid (name) state ...": a name has at most 15 characters and may hold ")"
                    split(FILENAME, p, "/"); lp = index($0, "(")
                    for (rp = lp + 16; rp > lp && substr($0, rp, 1) != ")"; rp--) { }
                    name = substr($0, lp + 1, rp - lp - 1); gsub(/ /, "_", name)
                    n = split(substr($0, rp + 2), f, " ")
                    if (n >= 13) print now, p[3], p[5], name, f[12] + f[13]
                }
            ' "${stats[@]}" 2>/dev/null >&3 || true
        fi
        sleep "$interval"
    done
}

sum() {
    local samples=$1 from=$2 to=$3
    [[ -r $samples && $from =~ ^[0-9]+$ && $to =~ ^[0-9]+$ ]] || usage
    awk -v from="$from" -v to="$to" -v hz="$(getconf CLK_TCK)" '
        {
            t = $1 * 1000; k = $2 " " $3; name[k] = $4
            if (t <= from) { before[k] = $5 }
            else if (t < to) { if (!(k in first)) first[k] = $5; last[k] = $5 }
            else if (!(k in after)) { after[k] = $5 }
        }
        END {
            for (k in name) {
                start = (k in before) ? before[k] : ((k in first) ? first[k] : "")
                end = (k in after) ? after[k] : ((k in last) ? last[k] : "")
                if (start == "" || end == "") continue
                n = name[k]; gsub(/[0-9]+/, "#", n)
                cpu[n] += (end - start) / hz; total += (end - start) / hz
            }
            for (n in cpu) if (cpu[n] > 0) printf "%.2f %s\n", cpu[n], n
            printf "%.2f total\n", total
        }' "$samples" | sort -k1,1nr -k2
}

case ${1:-} in
    sample) [[ $# -ge 2 ]] || usage; sample "${@:2}" ;;
    sum) [[ $# -eq 4 ]] || usage; sum "${@:2}" ;;
    *) usage ;;
esac
