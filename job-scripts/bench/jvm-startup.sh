#!/usr/bin/env bash
# jvm-startup.sh -- what a warm pool saves per program start, measured side by side in one run:
# `java ...` against `jvmreuse run ...` (same class path, same arguments, interleaved), for
#   Hello        the smallest program;
#   ConfigHeavy  a Hadoop task's set-up: builds a JobConf, parses an XML config, opens the local
#                file system (about two thousand classes), run in the pool both with Hadoop's jars
#                as the shared class path (the paper's design: Hadoop stays loaded) and without.
# Where Open MPI's Java bindings are available, a second pool on them runs the same pooled
# variants in the same rounds, so the native MPI backend is compared with the bindings.
# Every pooled run's stdout is checked against the stock run's. Prints medians and ratios.
#
# Settings: RUNS (default 15), WARMUP (default 3, per variant, not timed), SLOTS (default 2),
# BACKENDS (MPI backends to measure, default "native java" where both exist).
#
# Example: RUNS=5 BACKENDS=native job-scripts/bench/jvm-startup.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/core/pool.sh
source "$repo/job-scripts/lib/core/pool.sh"
# shellcheck source=job-scripts/lib/bench/pools.sh
source "$repo/job-scripts/lib/bench/pools.sh"

runs=${RUNS:-15}
warmup=${WARMUP:-3}
bench_pools_dir startup
export JVMREUSE_SLOTS=${SLOTS:-2}

jvmreuse_load_build "$repo"
if [[ ! -d $repo/workloads/target/lib ]]; then
    echo "the workloads are not built: run job-scripts/setup.sh" >&2
    exit 1
fi
workloads_jar=$(find "$repo/workloads/target" -maxdepth 1 -name 'workloads-*.jar' | head -n 1)
hadoop_cp=$(find "$repo/workloads/target/lib" -name '*.jar' | sort | paste -sd: -)
java=$(jvmreuse_java)

config=$work/config.xml
{
    echo '<?xml version="1.0"?><configuration>'
    for i in $(seq 200); do echo "<property><name>bench.key.$i</name><value>value-$i</value></property>"; done
    echo '</configuration>'
} >"$config"

bench_pools_start verbose
export JVMREUSE_SOCKET
JVMREUSE_SOCKET=$(bench_pool_socket "${backends[0]}")

# variant name -> command (word lists kept in arrays); the pooled ones on the first backend's pool
hello_java=("$java" -cp "$workloads_jar" org.jvmreuse.workloads.Hello bench)
hello_pool=("$JVMREUSE_CLIENT" run -cp "$workloads_jar" org.jvmreuse.workloads.Hello bench)
heavy_java=("$java" -cp "$workloads_jar:$hadoop_cp" org.jvmreuse.workloads.ConfigHeavy "$config")
heavy_pool=("$JVMREUSE_CLIENT" run --shared-cp "$hadoop_cp" -cp "$workloads_jar:$hadoop_cp"
    org.jvmreuse.workloads.ConfigHeavy "$config")
heavy_pool_unshared=("$JVMREUSE_CLIENT" run -cp "$workloads_jar:$hadoop_cp" org.jvmreuse.workloads.ConfigHeavy "$config")
# the same two pooled programs on another backend's pool ($1), for the backend comparison
on_pool() { "$JVMREUSE_CLIENT" --socket "$(bench_pool_socket "$1")" "${@:2}"; }
hello_other=(on_pool "${backends[-1]}" run -cp "$workloads_jar" org.jvmreuse.workloads.Hello bench)
heavy_other=(on_pool "${backends[-1]}" run --shared-cp "$hadoop_cp" -cp "$workloads_jar:$hadoop_cp"
    org.jvmreuse.workloads.ConfigHeavy "$config")

# Runs one command, appends its wall time in ms to the named file, checks its output.
timed() {
    local file=$1 expected=$2 start end out
    shift 2
    start=$EPOCHREALTIME
    out=$("$@" 2>/dev/null </dev/null)
    end=$EPOCHREALTIME
    if [[ $out != "$expected" ]]; then
        printf 'output differs from the stock run for: %s\n  expected: %s\n  got:      %s\n' "$*" "$expected" "$out" >&2
        exit 1
    fi
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >>"$work/$file"
}

hello_expected=$("${hello_java[@]}" 2>/dev/null </dev/null)
heavy_expected=$("${heavy_java[@]}" 2>/dev/null </dev/null)

echo "warming up the pool ($warmup runs of each pooled variant, not timed)..." >&2
for _ in $(seq "$warmup"); do
    timed warm "$hello_expected" "${hello_pool[@]}"
    timed warm "$heavy_expected" "${heavy_pool[@]}"
    timed warm "$heavy_expected" "${heavy_pool_unshared[@]}"
    if ((${#backends[@]} > 1)); then
        timed warm "$hello_expected" "${hello_other[@]}"
        timed warm "$heavy_expected" "${heavy_other[@]}"
    fi
done

echo "measuring $runs interleaved runs of each variant..." >&2
for i in $(seq "$runs"); do
    timed hello_java "$hello_expected" "${hello_java[@]}"
    timed hello_pool "$hello_expected" "${hello_pool[@]}"
    timed heavy_java "$heavy_expected" "${heavy_java[@]}"
    timed heavy_pool "$heavy_expected" "${heavy_pool[@]}"
    timed heavy_pool_unshared "$heavy_expected" "${heavy_pool_unshared[@]}"
    if ((${#backends[@]} > 1)); then
        timed hello_other "$hello_expected" "${hello_other[@]}"
        timed heavy_other "$heavy_expected" "${heavy_other[@]}"
    fi
    printf '\r  %d/%d' "$i" "$runs" >&2
done
echo >&2

median() { sort -n "$work/$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
row() {
    local label=$1 stock pool
    stock=$(median "$2")
    pool=$(median "$3")
    awk -v l="$label" -v s="$stock" -v p="$pool" 'BEGIN { printf "%-44s %10.1f %10.1f %8.1fx\n", l, s, p, s / p }'
}

echo
echo "JVM start-up, java vs jvmreuse run: medians of $runs runs (ms), $(nproc) cores, $("$java" -version 2>&1 | head -n 1)"
echo "pool: $(jvmreuse_status_field "$("$JVMREUSE_CLIENT" status --json)" mpi)"
printf '%-44s %10s %10s %9s\n' "program" "java" "pool" "ratio"
row "Hello" hello_java hello_pool
row "ConfigHeavy (Hadoop jars shared in the slot)" heavy_java heavy_pool
row "ConfigHeavy (everything reloaded per run)" heavy_java heavy_pool_unshared
echo
"$JVMREUSE_CLIENT" status
if ((${#backends[@]} > 1)); then
    echo
    echo "MPI backends, the same pooled runs interleaved: ${backends[-1]} vs ${backends[0]} (medians, ms; ratio > 1: ${backends[0]} faster)"
    printf '%-44s %10s %10s %9s\n' "program" "${backends[-1]}" "${backends[0]}" "ratio"
    row "Hello" hello_other hello_pool
    row "ConfigHeavy (Hadoop jars shared in the slot)" heavy_other heavy_pool
    printf 'jvm-startup: %s/%s backend time Hello %.2fx ConfigHeavy %.2fx\n' "${backends[0]}" "${backends[-1]}" \
        "$(awk -v a="$(median hello_pool)" -v b="$(median hello_other)" 'BEGIN { print a / b }')" \
        "$(awk -v a="$(median heavy_pool)" -v b="$(median heavy_other)" 'BEGIN { print a / b }')"
fi
