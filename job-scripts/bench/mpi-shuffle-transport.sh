#!/usr/bin/env bash
# mpi-shuffle-transport.sh -- the MPI shuffle's transport against the raw MPI ceiling, for each MPI
# backend of the pool (the native one, Open MPI's Java bindings), side by side in one run: per
# backend a pool (1 slot) whose manager runs the Shuffle Manager over a SIZE-byte map output, and
# a program in the slot that pulls that segment over MPI exactly as a reducer's fetcher does
# (chunks sent from the mapped file, the pool's single communication thread on both sides), without
# Hadoop's merge (1 MiB chunks, 4 in flight, as reducers use); then MpiBandwidth on the same
# backend, 1 MiB messages between 2 ranks. Rounds alternate the backends' order; medians over the
# rounds, with their range, and the ratios.
#
# Settings: SIZE (bytes, default 536870912), REPEAT (pulls per round, default 3), ROUNDS (default
# 3), BACKENDS (default "native java" where both exist).
# Last line: mpi-shuffle-transport: native/java shuffle X.XXx raw MPI Y.YYx (ratios of the medians)
#
# Example: SIZE=67108864 ROUNDS=1 job-scripts/bench/mpi-shuffle-transport.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/pool.sh
source "$repo/job-scripts/lib/pool.sh"
# shellcheck source=job-scripts/lib/bench-pools.sh
source "$repo/job-scripts/lib/bench-pools.sh"
size=${SIZE:-536870912}
repeat=${REPEAT:-3}
rounds=${ROUNDS:-3}
for v in "$size" "$repeat" "$rounds"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "SIZE, REPEAT and ROUNDS must be whole numbers >= 1" >&2; exit 2; }
done
bench_pools_dir transport
export JVMREUSE_SLOTS=1 JVMREUSE_WARMUP_RUNS=20

jvmreuse_load_build "$repo"
shuffle_jar=$(find "$repo/mpi-shuffle/target" -maxdepth 1 -name 'mpi-shuffle-*.jar' | head -n 1)
hadoop_lib=$repo/hadoop-patch/target/hadoop/lib
if [[ -z $shuffle_jar || ! -d $hadoop_lib ]]; then
    echo "mpi-shuffle or hadoop-patch is not built: run job-scripts/setup.sh" >&2
    exit 1
fi
java=$(jvmreuse_java)

mkdir -p "$work/conf" "$work/local"
cat >"$work/conf/yarn-site.xml" <<XML
<configuration><property><name>yarn.nodemanager.local-dirs</name><value>$work/local</value></property></configuration>
XML
"$java" -cp "$shuffle_jar" org.jvmreuse.shuffle.reduce.FetchBench prepare "$work/local" "$size"

# shellcheck disable=SC2034 # read by jvmreuse_pool_command
JVMREUSE_POOL_EXTRA_ARGS=(--service org.jvmreuse.shuffle.server.ShuffleManager
    --service-cp "$shuffle_jar:$hadoop_lib/*" --service-opt "conf-dir=$work/conf")
bench_pools_start quiet

# One round on backend $1: the pulls (median MB/s of the concurrent mode) and MpiBandwidth (1 MiB,
# non-blocking, best of its timed run), appended to $work/<backend>.fetch and .raw.
round() {
    local b=$1 out
    out=$("$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$b")" run --shared-cp "$shuffle_jar" -cp "$shuffle_jar" \
        org.jvmreuse.shuffle.reduce.FetchBench fetch "$size" "$repeat")
    printf '%s\n' "$out" >>"$work/$b.log"
    sed -n 's/^fetch mode=concurrent chunk=1048576 .* MBps=\([0-9.]*\) best=.*/\1/p' <<<"$out" >>"$work/$b.fetch"
    JVMREUSE_MPI_BACKEND=$b jvmreuse_mpi_program_command 2 org.jvmreuse.pool.bench.MpiBandwidth \
        --size 1048576 --mode nonblocking --seconds 0.5
    out=$("${JVMREUSE_MPI_PROGRAM_CMD[@]}" 2>&1) || { printf '%s\n' "$out" >&2; exit 1; }
    printf '%s\n' "$out" >>"$work/$b.log"
    sed -n 's/^bandwidth mode=nonblocking size=1048576 .* MBps=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$work/$b.raw"
}

printf '== MPI shuffle transport (a %s-byte segment pulled from the Shuffle Manager by a slot) and raw MPI,\n' "$size"
printf '   backends %s, %d rounds\n' "${backends[*]}" "$rounds"
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
if ((${#backends[@]} > 1)); then
    read -r f0 _ < <(stats "$work/${backends[0]}.fetch")
    read -r f1 _ < <(stats "$work/${backends[1]}.fetch")
    read -r r0 _ < <(stats "$work/${backends[0]}.raw")
    read -r r1 _ < <(stats "$work/${backends[1]}.raw")
    printf 'mpi-shuffle-transport: %s/%s shuffle %.2fx raw MPI %.2fx\n' "${backends[0]}" "${backends[1]}" \
        "$(awk -v a="$f0" -v b="$f1" 'BEGIN { print a / b }')" "$(awk -v a="$r0" -v b="$r1" 'BEGIN { print a / b }')"
fi
