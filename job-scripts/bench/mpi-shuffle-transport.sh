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
# MpiBandwidth on the same backend, 1 MiB messages between 2 ranks (both programs from the
# benchmarks jar, benchmarks/target/benchmarks-*.jar). Rounds alternate the backends'
# order (after one pull per backend that is not counted); medians over the rounds, with their
# range, and the ratios. Also the CPU time the pool's JVMs spent per GB pulled (both ends:
# communication threads, the Shuffle Manager's readers, the pulling task's copy out of the chunks;
# the JIT compiler threads apart), per thread name, summed over every pull (/proc/<pid>/task/*/stat
# before and after).
#
# Settings: SIZE (bytes, default 536870912), REPEAT (pulls per round, default 3), ROUNDS (default
# 3), BACKENDS (default "native java" where both exist), DIRECT (default true), DIRECT_FILES
# (default true; only with DIRECT), CHUNK (bytes,
# default 4194304 with DIRECT, else 1048576) and WINDOW (chunk reads in flight, default 4).
# One line per backend, `mpi-shuffle-transport BACKEND: shuffle N MB/s, raw MPI N MB/s, CPU N s/GB`
# (medians; job-scripts/bench/terasort-shuffle.sh reads the native one), and with two backends,
# last: mpi-shuffle-transport: native/java shuffle X.XXx raw MPI Y.YYx (ratios of the medians)
#
# Example: SIZE=67108864 ROUNDS=1 job-scripts/bench/mpi-shuffle-transport.sh
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
if [[ $direct == true ]]; then chunk=${CHUNK:-4194304}; else chunk=${CHUNK:-1048576}; fi
window=${WINDOW:-4}
for v in "$size" "$repeat" "$rounds" "$chunk" "$window"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "SIZE, REPEAT, ROUNDS, CHUNK and WINDOW must be whole numbers >= 1" >&2; exit 2; }
done
bench_pools_dir transport
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
bench_pools_start quiet

# "tid name ticks" for every thread of backend $1's pool JVMs (their command line names its dir).
thread_ticks() {
    local p cmdline
    local -a stats=()
    for p in /proc/[0-9]*; do
        [[ $(cat "$p/comm" 2>/dev/null) == java ]] || continue
        cmdline=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
        [[ $cmdline == *"$work/$1/"* ]] && stats+=("$p"/task/*/stat)
    done
    ((${#stats[@]})) || return 0
    awk '
        FNR == 1 {
            split(FILENAME, p, "/"); lp = index($0, "(")
            for (rp = lp + 16; rp > lp && substr($0, rp, 1) != ")"; rp--) { }
            name = substr($0, lp + 1, rp - lp - 1); gsub(/ /, "_", name); gsub(/[0-9]+/, "#", name)
            n = split(substr($0, rp + 2), f, " ")
            if (n >= 13) print p[5], name, f[12] + f[13]
        }' "${stats[@]}" 2>/dev/null || true
}

# One round on backend $1: the pulls (median MB/s) and MpiBandwidth (1 MiB, non-blocking, best
# of its timed run), appended to $work/<backend>.fetch and .raw; the pool JVMs' CPU ticks per
# thread name during the pulls, appended to $work/<backend>.cpu ("name ticks" lines).
round() {
    local b=$1 out before
    before=$(thread_ticks "$b")
    out=$("$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$b")" run --shared-cp "$fetch_cp" -cp "$fetch_cp" \
        -Djvmreuse.shuffle.direct="$direct" -Djvmreuse.shuffle.direct-files="$direct_files" org.jvmreuse.shuffle.reduce.FetchBench fetch "$size" "$repeat" concurrent "$chunk" \
        "$window")
    awk 'NR == FNR { was[$1] = $3; next } { print $2, $3 - (($1 in was) ? was[$1] : 0) }' \
        <(printf '%s\n' "$before") <(thread_ticks "$b") >>"$work/$b.cpu"
    # the pulling thread is the run's own, gone once it ends: FetchBench reports its CPU time
    sed -n 's/^fetch .* cpu_s=\([0-9.]*\)$/task \1/p' <<<"$out" | awk -v hz="$(getconf CLK_TCK)" '{ print "pulling_task", $2 * hz }' >>"$work/$b.cpu"
    printf '%s\n' "$out" >>"$work/$b.log"
    sed -n 's/^fetch mode=concurrent chunk=[0-9]* .* MBps=\([0-9.]*\) best=.*/\1/p' <<<"$out" >>"$work/$b.fetch"
    [[ -s $work/$b.fetch ]] || { printf '%s\n' "$out" >&2; echo "no fetch result from FetchBench" >&2; exit 1; }
    JVMREUSE_MPI_BACKEND=$b jvmreuse_mpi_program_command 2 "$BENCH_JAR" org.jvmreuse.bench.mpi.MpiBandwidth \
        --size 1048576 --mode nonblocking --seconds 0.5
    out=$("${JVMREUSE_MPI_PROGRAM_CMD[@]}" 2>&1) || { printf '%s\n' "$out" >&2; exit 1; }
    printf '%s\n' "$out" >>"$work/$b.log"
    sed -n 's/^bandwidth mode=nonblocking size=1048576 .* MBps=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$work/$b.raw"
}

# CPU seconds per GB pulled from backend $1's .cpu file, without the JIT compiler threads (whose
# work is the slot's, once, not per byte): "total compiler name1 s1 name2 s2 ..." (largest first).
cpu_per_gb() {
    awk -v hz="$(getconf CLK_TCK)" -v gb="$(awk -v s="$size" -v r="$repeat" -v n="$rounds" 'BEGIN { print s * r * n / 1e9 }')" '
        $1 ~ /^C#_CompilerThre/ { jit += $2; next }
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
# One pull per backend first, not counted: the slot compiles the fetch path as it goes.
for b in "${backends[@]}"; do
    "$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$b")" run --shared-cp "$fetch_cp" -cp "$fetch_cp" \
        -Djvmreuse.shuffle.direct="$direct" -Djvmreuse.shuffle.direct-files="$direct_files" org.jvmreuse.shuffle.reduce.FetchBench fetch "$size" 1 concurrent "$chunk" \
        "$window" >>"$work/$b.log"
done
for ((r = 1; r <= rounds; r++)); do
    order=("${backends[@]}")
    if ((r % 2 == 0)); then
        order=()
        for ((i = ${#backends[@]} - 1; i >= 0; i--)); do order+=("${backends[i]}"); done
    fi
    for b in "${order[@]}"; do
        round "$b"
        printf '  round %d %-7s shuffle %8.1f MB/s   raw MPI %8.1f MB/s\n' "$r" "$b" \
            "$(tail -n 1 "$work/$b.fetch")" "$(tail -n 1 "$work/$b.raw")"
    done
done

# median and range of the numbers in file $1: "median min max"
stats() { sort -g "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'; }
echo
printf '%-10s %-44s %28s %28s\n' backend "MPI library" "shuffle MB/s median (range)" "raw MPI MB/s median (range)"
for b in "${backends[@]}"; do
    read -r fm fl fh < <(stats "$work/$b.fetch")
    read -r rm rl rh < <(stats "$work/$b.raw")
    lib=$(jvmreuse_status_field "$("$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$b")" status --json)" mpi | sed 's/^[^,]*, //' | cut -c1-44)
    printf '%-10s %-44s %10.1f (%6.0f-%6.0f) %10.1f (%6.0f-%6.0f)\n' "$b" "$lib" "$fm" "$fl" "$fh" "$rm" "$rl" "$rh"
done
echo
for b in "${backends[@]}"; do
    read -r cpu jit rest < <(cpu_per_gb "$b")
    printf 'CPU seconds of the %s pool'"'"'s JVMs per GB pulled: %s (%s; JIT compiler threads %s more)\n' "$b" "$cpu" \
        "$rest" "$jit"
done
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
