#!/usr/bin/env bash
# mpi-shuffle-transport.sh -- the MPI shuffle's transport against the raw MPI ceiling, for each MPI
# backend of the pool (the native one, Open MPI's Java bindings), side by side in one run: per
# backend a pool (1 slot) whose manager runs the Shuffle Manager over a SIZE-byte map output, and
# a program in the slot that pulls that segment exactly as a reducer's fetcher does (concurrent
# mode; on one host, as reducers do by default, the Shuffle Manager lends the map output's open
# file and the pulling thread reads the segment itself, straight into its array, at most 4 MiB
# per read; DIRECT_FILES=false: each 4 MiB chunk copied by the pulling thread out of the
# Shuffle Manager's mapping, 4 in flight; DIRECT=false: chunks sent from the mapped file over
# MPI, the pool's communication thread on both sides, 1 MiB chunks, 4 in flight, as between
# hosts), without Hadoop's merge; then
# MpiBandwidth on the same backend, 1 MiB messages between 2 ranks, non-blocking (the median of 3
# runs of 0.5 s; both programs from the benchmarks jar, benchmarks/target/benchmarks-*.jar). Rounds
# alternate the backends' order (after one pull per backend that is not counted); each round's
# shuffle/raw MPI ratio, medians over the rounds, with their range, and the ratios. Also the CPU time the pool's JVMs spent per GB pulled (both ends:
# communication threads, the Shuffle Manager's readers, the pulling task's copy out of the chunks;
# the JIT compiler threads apart), per thread name, summed over every pull (/proc/<pid>/task/*/stat
# before and after).
#
# After the rounds, the pool JVMs' CPU over IDLE seconds without traffic (the communication
# threads, mpi-comm, and all threads; per host).
#
# HOSTS=2 (root): the same between two hosts of the multi-host testbed (job-scripts/testbed/
# jvmreuse-hosts; refused while anyone's testbed is up, stopped by its own stop at the end): this
# script runs again in n1, with the testbed's Open MPI settings, and each backend's pools are ONE
# launch across n1 and n2 (ranks 0-1 on n1, 2-3 on n2); the Shuffle Manager on n1 holds the map
# output (in a dir both hosts share, under BENCH_SHARED_DIR) and n2's slot pulls it (FetchBench
# -Dfetchbench.server=other-host), so every byte goes as MPI messages between the hosts (ob1's tcp
# BTL; UCX's tcp with pml ucx), no lent file and no direct copy: FetchBench's paths lines count
# the bytes by way (the reducer's counter names) and the Shuffle Manager's log on n1 says whether
# it lent a file; the run fails unless every byte came as MPI messages from the other host.
# MpiBandwidth runs between a rank on n1 and one on n2. LINK_RATE (e.g. 1gbit) shapes both hosts'
# links (tc tbf).
#
# PMLS (Open MPI, e.g. "ob1 ucx"): each backend once per pml, as its own pool launch and its own
# MpiBandwidth (OMPI_MCA_pml, and for ucx OMPI_MCA_pml_ucx_tls/devices "any" unless set: Open MPI
# 4.1 takes pml ucx only over InfiniBand/RoCE by default, and the testbed has tcp alone), in the
# rounds' alternating order; each variant is named BACKEND-PML (native-ucx). Without PMLS the
# pools run on the pml the environment and the MPI's configuration choose. Either way the pml
# that each pool's JVMs loaded (/proc/<pid>/maps) is named, and must be the one asked for.
#
# Settings: SIZE (bytes, default 536870912), REPEAT (pulls per round, default 3), ROUNDS (default
# 3), BACKENDS (default "native java" where both exist; "native" with PMLS), PMLS, DIRECT (default
# true), DIRECT_FILES (default true; only with DIRECT), CHUNK (bytes, default 4194304 with DIRECT
# on one host, else 1048576, the reducer's chunk-bytes) and WINDOW (chunk reads in flight, default
# 4), IDLE (seconds, default 30; 0: no idle measurement), HOSTS (1 or 2, default 1), LINK_RATE
# (with HOSTS=2), BENCH_SHARED_DIR (with HOSTS=2, default /var/tmp).
# One line per backend, `mpi-shuffle-transport BACKEND: shuffle N MB/s, raw MPI N MB/s, CPU N s/GB`
# (medians; job-scripts/bench/terasort-shuffle.sh reads the native one), with two backends
# then: mpi-shuffle-transport: native/java shuffle X.XXx raw MPI Y.YYx (ratios of the medians, of
# the first two), and with HOSTS=2, last, for the first backend (with PMLS, one line per pml, the
# others' also against the first pml's raw MPI):
# mpi-shuffle-transport across 2 hosts: shuffle N MB/s, raw MPI N MB/s (P% of raw MPI), CPU N s/GB, pml ob1
# mpi-shuffle-transport across 2 hosts: shuffle N MB/s, raw MPI N MB/s (P% of raw MPI), CPU N s/GB, pml ucx (Q% of ob1's raw MPI)
#
# Examples: SIZE=67108864 ROUNDS=1 job-scripts/bench/mpi-shuffle-transport.sh
#           HOSTS=2 LINK_RATE=1gbit SIZE=268435456 BACKENDS=native job-scripts/bench/mpi-shuffle-transport.sh
#           HOSTS=2 SIZE=268435456 PMLS="ob1 ucx" job-scripts/bench/mpi-shuffle-transport.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/core/pool.sh
source "$repo/job-scripts/lib/core/pool.sh"
# shellcheck source=job-scripts/lib/bench/pools.sh
source "$repo/job-scripts/lib/bench/pools.sh"
size=${SIZE:-536870912}
repeat=${REPEAT:-3}
rounds=${ROUNDS:-3}
direct=${DIRECT:-true}
[[ $direct == true || $direct == false ]] || { echo "DIRECT must be true or false" >&2; exit 2; }
direct_files=${DIRECT_FILES:-true}
[[ $direct_files == true || $direct_files == false ]] || { echo "DIRECT_FILES must be true or false" >&2; exit 2; }
hosts=${HOSTS:-1}
[[ $hosts == 1 || $hosts == 2 ]] || { echo "HOSTS must be 1 or 2" >&2; exit 2; }
[[ -z ${LINK_RATE:-} || $hosts == 2 ]] || { echo "LINK_RATE needs HOSTS=2" >&2; exit 2; }
if [[ $direct == true && $hosts == 1 ]]; then chunk=${CHUNK:-4194304}; else chunk=${CHUNK:-1048576}; fi
window=${WINDOW:-4}
idle=${IDLE:-30}
for v in "$size" "$repeat" "$rounds" "$chunk" "$window"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "SIZE, REPEAT, ROUNDS, CHUNK and WINDOW must be whole numbers >= 1" >&2; exit 2; }
done
[[ $idle =~ ^[0-9]+$ ]] || { echo "IDLE must be a whole number of seconds" >&2; exit 2; }
read -r -a pmls <<<"${PMLS:-}"
for v in ${pmls[@]+"${pmls[@]}"}; do
    [[ $v =~ ^[a-z][a-z0-9]*$ ]] || { echo "PMLS must name Open MPI pmls (e.g. \"ob1 ucx\")" >&2; exit 2; }
done
testbed=$repo/job-scripts/testbed/jvmreuse-hosts

# HOSTS=2, on this machine: the testbed's hosts n1 and n2 (links shaped to LINK_RATE), then this
# script again in n1 with the testbed's Open MPI settings; the testbed's own stop ends the hosts
# when it is done. A testbed that is already up (someone else's) is left alone: refused.
run_in_hosts() {
    [[ $EUID -eq 0 ]] || { echo "HOSTS=2 needs root (the testbed's hosts are network, UTS and mount namespaces)" >&2; exit 2; }
    if "$testbed" status >/dev/null 2>&1; then
        echo "the multi-host testbed is up (jvmreuse-hosts status lists its hosts): not starting another over it" >&2
        exit 1
    fi
    trap '"$testbed" stop >/dev/null 2>&1 || echo "the testbed hosts did not stop: jvmreuse-hosts stop" >&2' EXIT
    trap 'exit 130' INT TERM
    "$testbed" start --hosts 2 ${LINK_RATE:+--rate "$LINK_RATE"} >/dev/null
    # shellcheck disable=SC2016 # expanded by that bash
    JVMREUSE_TRANSPORT_IN_HOSTS=1 "$testbed" exec n1 bash -c 'eval "$("$0" mpi-env)" && exec "$@"' "$testbed" \
        "$here/$(basename "${BASH_SOURCE[0]}")"
    exit 0
}
if [[ $hosts == 2 && -z ${JVMREUSE_TRANSPORT_IN_HOSTS:-} ]]; then
    run_in_hosts
fi
# PMLS: a pool (and an MpiBandwidth) per backend and pml, bench_pools_start's BACKEND-PML entries
# (here, where the pools start: across hosts this is the run in n1)
if ((${#pmls[@]})); then
    read -r -a wanted <<<"${BACKENDS:-native}"
    variants=()
    for b in "${wanted[@]}"; do
        for v in "${pmls[@]}"; do variants+=("$b-$v"); done
    done
    BACKENDS=${variants[*]}
fi

# Where the slot that pulls runs: n2 across hosts (its pool's socket, its host), else this pool.
if [[ $hosts == 2 ]]; then
    bench_pools_dir transport "${BENCH_SHARED_DIR:-/var/tmp}"
    pool_hosts=(n1 n2) pull_host=n2 server=other-host
    bench_on_host() { "$testbed" exec "$@"; }
else
    bench_pools_dir transport
    pool_hosts=() pull_host='' server=first
fi
export JVMREUSE_SLOTS=1 JVMREUSE_WARMUP_RUNS=20

jvmreuse_load_build "$repo"
jvmreuse_bench_jar "$repo"
shuffle_jar=$(find "$repo/mpi-shuffle/target" -maxdepth 1 -name 'mpi-shuffle-*.jar' | head -n 1)
hadoop_lib=$repo/hadoop-patch/target/hadoop/lib
if [[ -z $shuffle_jar || ! -d $hadoop_lib ]]; then
    echo "mpi-shuffle or hadoop-patch is not built: run job-scripts/setup.sh" >&2
    exit 1
fi
# FetchBench drives the reducer's package-private classes from the benchmarks jar, in their
# package: one loader must define both jars, so both go on the run's shared class path. Hadoop's
# jars go there too, as for a reducer: the request's HMAC is Hadoop's (SecureShuffleUtils).
fetch_cp="$shuffle_jar:$BENCH_JAR:$hadoop_lib/*"
java=$(jvmreuse_java)

mkdir -p "$work/conf" "$work/local"
cat >"$work/conf/yarn-site.xml" <<XML
<configuration><property><name>yarn.nodemanager.local-dirs</name><value>$work/local</value></property></configuration>
XML
"$java" -cp "$fetch_cp" org.jvmreuse.shuffle.reduce.FetchBench prepare "$work/local" "$size"

# shellcheck disable=SC2034 # read by jvmreuse_pool_command
JVMREUSE_POOL_EXTRA_ARGS=(--service org.jvmreuse.shuffle.server.ShuffleManager
    --service-cp "$shuffle_jar:$hadoop_lib/*" --service-opt "conf-dir=$work/conf")
bench_pools_start quiet ${pool_hosts[@]+"${pool_hosts[@]}"}

# The PIDs of backend $1's pool JVMs (their command line names its dir); with a host $2, those on it.
pool_pids() {
    local p cmdline
    local -A on=()
    if [[ -n ${2:-} ]]; then
        while read -r p; do on[$p]=1; done < <("$testbed" pids "$2")
    fi
    for p in /proc/[0-9]*; do
        [[ -z ${2:-} || -n ${on[${p#/proc/}]:-} ]] || continue
        [[ $(cat "$p/comm" 2>/dev/null) == java ]] || continue
        cmdline=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
        [[ $cmdline != *"$work/$1/"* ]] || printf '%s\n' "${p#/proc/}"
    done
}

# The pml that backend $1's pool JVMs loaded (Open MPI unloads the pmls it did not select): the
# mca_pml_*.so in their maps, e.g. ob1 or ucx (several: comma-separated); n/a for an MPI without
# such plug-ins (MPICH).
pool_pml() {
    local host p
    for host in "${pool_hosts[@]:-}"; do
        while read -r p; do
            grep -o 'mca_pml_[a-z0-9]*\.so' "/proc/$p/maps" 2>/dev/null || true
        done < <(pool_pids "$1" "$host")
    done | sed 's/^mca_pml_//; s/\.so$//' | sort -u | paste -sd, - | sed 's|^$|n/a|'
}
declare -A pml_of=()
for b in "${backends[@]}"; do
    pml_of[$b]=$(pool_pml "$b")
    if [[ $b == *-* && ${pml_of[$b]} != "${b#*-}" ]]; then
        echo "the $b pools loaded pml ${pml_of[$b]}, not ${b#*-}" >&2
        exit 1
    fi
done

# "tid name ticks" for every thread of backend $1's pool JVMs; across hosts each name starts with
# its host, e.g. n2:mpi-comm.
thread_ticks() {
    local host p
    for host in "${pool_hosts[@]:-}"; do
        local -a stats=()
        while read -r p; do stats+=("/proc/$p"/task/*/stat); done < <(pool_pids "$1" "$host")
        ((${#stats[@]})) || continue
        awk -v host="${host:+$host:}" '
            FNR == 1 {
                split(FILENAME, p, "/"); lp = index($0, "(")
                for (rp = lp + 16; rp > lp && substr($0, rp, 1) != ")"; rp--) { }
                name = substr($0, lp + 1, rp - lp - 1); gsub(/ /, "_", name); gsub(/[0-9]+/, "#", name)
                n = split(substr($0, rp + 2), f, " ")
                if (n >= 13) print p[5], host name, f[12] + f[13]
            }' "${stats[@]}" 2>/dev/null || true
    done
}

# FetchBench's pulls in the slot ($pull_host's, across hosts) of backend $1's pools: $2 pulls.
pull() {
    ${pull_host:+bench_on_host "$pull_host"} "$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$1" "$pull_host")" run \
        --shared-cp "$fetch_cp" -cp "$fetch_cp" -Djvmreuse.shuffle.direct="$direct" \
        -Djvmreuse.shuffle.direct-files="$direct_files" -Dfetchbench.server="$server" \
        org.jvmreuse.shuffle.reduce.FetchBench fetch "$size" "$2" concurrent "$chunk" "$window"
}

# One round on backend $1: the pulls (median MB/s) and MpiBandwidth (1 MiB, non-blocking, the
# median of 3 timed runs of 0.5 s), appended to $work/<backend>.fetch and .raw; the pool JVMs' CPU ticks per
# thread name during the pulls, appended to $work/<backend>.cpu ("name ticks" lines).
round() {
    local b=$1 out before
    before=$(thread_ticks "$b")
    out=$(pull "$b" "$repeat")
    awk 'NR == FNR { was[$1] = $3; next } { print $2, $3 - (($1 in was) ? was[$1] : 0) }' \
        <(printf '%s\n' "$before") <(thread_ticks "$b") >>"$work/$b.cpu"
    # the pulling thread is the run's own, gone once it ends: FetchBench reports its CPU time
    sed -n 's/^fetch .* cpu_s=\([0-9.]*\)$/task \1/p' <<<"$out" |
        awk -v hz="$(getconf CLK_TCK)" -v host="${pull_host:+$pull_host:}" '{ print host "pulling_task", $2 * hz }' >>"$work/$b.cpu"
    sed -n 's/^paths //p' <<<"$out" >>"$work/$b.paths"
    printf '%s\n' "$out" >>"$work/$b.log"
    sed -n 's/^fetch mode=concurrent chunk=[0-9]* .* MBps=\([0-9.]*\) best=.*/\1/p' <<<"$out" >>"$work/$b.fetch"
    [[ -s $work/$b.fetch ]] || { printf '%s\n' "$out" >&2; echo "no fetch result from FetchBench" >&2; exit 1; }
    JVMREUSE_MPI_BACKEND=${b%%-*} jvmreuse_mpi_program_command 2 "$BENCH_JAR" org.jvmreuse.bench.mpi.MpiBandwidth \
        --size 1048576 --mode nonblocking --seconds 0.5 --repeat 3
    # across hosts: rank 0 on n1, rank 1 on n2 (the testbed's hostfile is in the environment)
    out=$(bench_variant_env "$b" "${JVMREUSE_MPI_PROGRAM_CMD[0]}" ${pool_hosts[0]+-host "n1,n2"} "${JVMREUSE_MPI_PROGRAM_CMD[@]:1}" 2>&1) ||
        { printf '%s\n' "$out" >&2; exit 1; }
    printf '%s\n' "$out" >>"$work/$b.log"
    sed -n 's/^bandwidth mode=nonblocking size=1048576 .* MBps=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$work/$b.raw"
}

# CPU seconds per GB pulled from backend $1's .cpu file, without the JIT compiler threads (whose
# work is the slot's, once, not per byte): "total compiler name1 s1 name2 s2 ..." (largest first).
cpu_per_gb() {
    awk -v hz="$(getconf CLK_TCK)" -v gb="$(awk -v s="$size" -v r="$repeat" -v n="$rounds" 'BEGIN { print s * r * n / 1e9 }')" '
        $1 ~ /C#_CompilerThre/ { jit += $2; next }
        { t[$1] += $2; all += $2 }
        END {
            printf "%.2f %.2f", all / hz / gb, jit / hz / gb
            for (k = 0; k < 5; k++) {
                best = ""; for (n in t) if (!(n in seen) && t[n] > 0 && (best == "" || t[n] > t[best])) best = n
                if (best == "") break
                seen[best] = 1; printf " %s %.2f", best, t[best] / hz / gb
            }
            print ""
        }' "$work/$1.cpu"
}

printf '== MPI shuffle transport (a %s-byte segment pulled from the Shuffle Manager by a slot, %s-byte chunks,\n' "$size" "$chunk"
printf '   %s in flight, direct copies %s, lent files %s) and raw MPI, backends %s, %d rounds of %d pulls; load average %s\n' \
    "$window" "$direct" "$([[ $direct == true ]] && echo "$direct_files" || echo false)" "${backends[*]}" \
    "$rounds" "$repeat" "$(cut -d ' ' -f 1-3 /proc/loadavg)"
if [[ $hosts == 2 ]]; then
    printf '   between 2 hosts: the Shuffle Manager on n1, the pulling slot and raw MPI'"'"'s rank 1 on n2; links %s\n' \
        "${LINK_RATE:-unshaped}"
fi
printf '   pml (loaded by the pools'"'"' JVMs):'
for b in "${backends[@]}"; do printf ' %s %s' "$b" "${pml_of[$b]}"; done
printf '%s\n' "$( ((${#pmls[@]})) && [[ " ${pmls[*]} " == *" ucx "* ]] &&
    echo "; pml ucx with pml_ucx_tls=${OMPI_MCA_pml_ucx_tls:-any} pml_ucx_devices=${OMPI_MCA_pml_ucx_devices:-any}${UCX_TLS:+ UCX_TLS=$UCX_TLS}")"
# One pull per backend first, not counted: the slot compiles the fetch path as it goes.
for b in "${backends[@]}"; do
    pull "$b" 1 >>"$work/$b.log"
done
for ((r = 1; r <= rounds; r++)); do
    order=("${backends[@]}")
    if ((r % 2 == 0)); then
        order=()
        for ((i = ${#backends[@]} - 1; i >= 0; i--)); do order+=("${backends[i]}"); done
    fi
    for b in "${order[@]}"; do
        round "$b"
        read -r f < <(tail -n 1 "$work/$b.fetch")
        read -r m < <(tail -n 1 "$work/$b.raw")
        printf '  round %d %-7s shuffle %8.1f MB/s   raw MPI %8.1f MB/s   (%3.0f%%)\n' "$r" "$b" "$f" "$m" \
            "$(awk -v a="$f" -v b="$m" 'BEGIN { print 100 * a / b }')"
    done
done

# Across hosts, what says which way the bytes went: FetchBench's paths lines (the bytes of all
# counted pulls by way, under the reducer's counter names) and the Shuffle Manager's log on n1 (a
# line per segment served, "file lent" where it lent the file); fails unless every byte came as MPI
# messages from another host and no file was lent.
check_paths() {
    local b=$1 totals served
    totals=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] ~ /_BYTES_/) t[kv[1]] += kv[2]; else seen[$i] = 1 } }
        END { for (k in seen) print k; for (k in t) printf "%s=%.0f\n", k, t[k] }' "$work/$b.paths" | sort | paste -sd ' ')
    printf 'bytes by way (%s, all counted pulls): %s\n' "$b" "$totals"
    served=$(cat "$(dirname "$(bench_pool_socket "$b" n1)")"/logs/manager-*.log | awk '/MPI shuffle: serving attempt/ {
            n++; if (/file lent/) lent++; to[$NF] = 1 }
        END { printf "%d segments served to rank", n; for (r in to) printf " %s", r; printf ", %d of them as lent files\n", lent }')
    printf 'the Shuffle Manager on n1 (%s, its log): %s\n' "$b" "$served"
    if [[ $totals == *same_host=true* || $totals != *"MPI_MESSAGE_BYTES_OTHER_HOST=$((size * repeat * rounds))"* ||
        $served != *", 0 of them as lent files" ]]; then
        echo "not every byte came as MPI messages from the Shuffle Manager on n1" >&2
        exit 1
    fi
}

# The CPU ticks of backend $1's pool JVMs over $idle seconds without traffic, per host: "host
# mpi-comm-ticks all-ticks" lines.
idle_ticks() {
    local before after host
    before=$(thread_ticks "$1")
    sleep "$idle"
    after=$(thread_ticks "$1")
    for host in "${pool_hosts[@]:-}"; do
        awk -v host="${host:+$host:}" -v label="${host:-this-host}" '
            NR == FNR { was[$1] = $3; next }
            index($2, host) == 1 { d = $3 - (($1 in was) ? was[$1] : 0); all += d; if ($2 == host "mpi-comm") comm += d }
            END { print label, comm + 0, all + 0 }' <(printf '%s\n' "$before") <(printf '%s\n' "$after")
    done
}

# median and range of the numbers in file $1: "median min max"
stats() { sort -g "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'; }
echo
printf '%-10s %-44s %-4s %28s %28s\n' backend "MPI library" pml "shuffle MB/s median (range)" "raw MPI MB/s median (range)"
for b in "${backends[@]}"; do
    read -r fm fl fh < <(stats "$work/$b.fetch")
    read -r rm rl rh < <(stats "$work/$b.raw")
    lib=$(jvmreuse_status_field "$("$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$b" "${pool_hosts[0]:-}")" status --json)" mpi | sed 's/^[^,]*, //' | cut -c1-44)
    printf '%-10s %-44s %-4s %10.1f (%6.0f-%6.0f) %10.1f (%6.0f-%6.0f)\n' "$b" "$lib" "${pml_of[$b]}" "$fm" "$fl" "$fh" "$rm" "$rl" "$rh"
done
echo
for b in "${backends[@]}"; do
    read -r cpu jit rest < <(cpu_per_gb "$b")
    printf 'CPU seconds of the %s pool'"'"'s JVMs per GB pulled: %s (%s; JIT compiler threads %s more)\n' "$b" "$cpu" \
        "$rest" "$jit"
done
if [[ $hosts == 2 ]]; then
    for b in "${backends[@]}"; do check_paths "$b"; done
fi
if ((idle > 0)); then
    for b in "${backends[@]}"; do
        while read -r host comm all; do
            printf 'idle %s s after the pulls, %s pool on %s: mpi-comm %s ticks (%.2f%% of a core), all threads %s ticks (%.2f%%)\n' \
                "$idle" "$b" "$host" "$comm" "$(awk -v t="$comm" -v s="$idle" -v hz="$(getconf CLK_TCK)" 'BEGIN { print 100 * t / hz / s }')" \
                "$all" "$(awk -v t="$all" -v s="$idle" -v hz="$(getconf CLK_TCK)" 'BEGIN { print 100 * t / hz / s }')"
        done < <(idle_ticks "$b")
    done
fi
for b in "${backends[@]}"; do
    read -r fm _ < <(stats "$work/$b.fetch")
    read -r rm _ < <(stats "$work/$b.raw")
    read -r cpu _ < <(cpu_per_gb "$b")
    printf 'mpi-shuffle-transport %s: shuffle %.0f MB/s, raw MPI %.0f MB/s, CPU %s s/GB\n' "$b" "$fm" "$rm" "$cpu"
done
if ((${#backends[@]} > 1)); then
    read -r f0 _ < <(stats "$work/${backends[0]}.fetch")
    read -r f1 _ < <(stats "$work/${backends[1]}.fetch")
    read -r r0 _ < <(stats "$work/${backends[0]}.raw")
    read -r r1 _ < <(stats "$work/${backends[1]}.raw")
    printf 'mpi-shuffle-transport: %s/%s shuffle %.2fx raw MPI %.2fx\n' "${backends[0]}" "${backends[1]}" \
        "$(awk -v a="$f0" -v b="$f1" 'BEGIN { print a / b }')" "$(awk -v a="$r0" -v b="$r1" 'BEGIN { print a / b }')"
fi
if [[ $hosts == 2 ]]; then
    # the first backend's line; with PMLS, one per pml of the first backend
    last=("${backends[0]}")
    if ((${#pmls[@]})); then
        last=()
        for v in "${pmls[@]}"; do last+=("${backends[0]%%-*}-$v"); done
    fi
    read -r r0 _ < <(stats "$work/${last[0]}.raw")
    for b in "${last[@]}"; do
        read -r fm _ < <(stats "$work/$b.fetch")
        read -r rm _ < <(stats "$work/$b.raw")
        read -r cpu _ < <(cpu_per_gb "$b")
        than=''
        if [[ $b != "${last[0]}" ]]; then
            than=$(awk -v a="$fm" -v b="$r0" -v p="${pml_of[${last[0]}]}" 'BEGIN { printf " (%.0f%% of %s'"'"'s raw MPI)", 100 * a / b, p }')
        fi
        printf 'mpi-shuffle-transport across 2 hosts: shuffle %.0f MB/s, raw MPI %.0f MB/s (%.0f%% of raw MPI), CPU %s s/GB, pml %s%s\n' \
            "$fm" "$rm" "$(awk -v a="$fm" -v b="$rm" 'BEGIN { print 100 * a / b }')" "$cpu" "${pml_of[$b]}" "$than"
    done
fi
