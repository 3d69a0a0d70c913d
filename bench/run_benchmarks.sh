#!/usr/bin/env bash
# Generates benchmark inputs (once) and prints the tables for the README.
#   KS_BUILD_DIR   build folder (default: build)
#   KS_BENCH_DIR   where inputs go (default: $KS_BUILD_DIR/bench-data)
#   KS_BENCH_BIG=1 also the 1 GB rank (B1) and the >4 GB rank (B4): needs ~6 GB of disk and minutes
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${KS_BUILD_DIR:-$here/../build}
data=${KS_BENCH_DIR:-$build/bench-data}
cli="$build/app/cli/kinetoscope-cli"
mkdir -p "$data"
shared="$here/../../shared/traces"

[ -f "$data/synth-150/rank-0.pt.trace.json.gz" ] || "$cli" synth --ranks 1 --size-mb 150 --gzip --seed 7 --out "$data/synth-150" >/dev/null
inputs=("$data/synth-150/rank-0.pt.trace.json.gz")
big=()
if [ -d "$shared" ]; then
    [ -f "$data/scaled-control/control.x40.pt.trace.json.gz" ] || {
        mkdir -p "$data/scaled-control"
        "$cli" synth --from "$shared/diff_control/control.json.gz" --copies 40 --gzip --out "$data/scaled-control" >/dev/null
    }
    inputs+=("$(ls "$data"/scaled-control/*.json.gz | head -1)")
fi
if [ "${KS_BENCH_BIG:-0}" = "1" ]; then
    [ -f "$data/synth-1000/rank-0.pt.trace.json.gz" ] || "$cli" synth --ranks 1 --size-mb 1000 --gzip --seed 7 --out "$data/synth-1000" >/dev/null
    inputs+=("$data/synth-1000/rank-0.pt.trace.json.gz")
    [ -f "$data/synth-4500/rank-0.pt.trace.json.gz" ] || "$cli" synth --ranks 1 --size-mb 4500 --gzip --seed 7 --out "$data/synth-4500" >/dev/null
    inputs+=("$data/synth-4500/rank-0.pt.trace.json.gz")
    # Real-derived ranks of 1 GB and 4.5 GB: diff_control (33 MB of JSON) repeated along time.
    if [ -d "$shared" ]; then
        for copies in 30 136; do
            dir="$data/scaled-control-$copies"
            [ -f "$dir/control.x$copies.pt.trace.json.gz" ] || "$cli" synth --from "$shared/diff_control/control.json.gz" --copies "$copies" --gzip --out "$dir" >/dev/null
            big+=("$dir/control.x$copies.pt.trace.json.gz")
        done
    fi
fi
echo "## B1/B3/B4: load one rank (machine: $(nproc) cores, $(date -u +%Y-%m-%d))"
"$build/bench/kinetoscope-bench-load" --runs "${KS_BENCH_RUNS:-3}" "${inputs[@]}" "${big[@]}"
echo
echo "## B1/B3/B4 as a user meets them: the whole kinetoscope-cli info process, worst of 5"
python3 "$here/whole_process_load.py" "$cli" --runs "${KS_BENCH_WHOLE_RUNS:-5}" "${inputs[@]}" "${big[@]}"

# B2/B6: a folder of 8 x 150 MB ranks, all analyses.
[ -f "$data/synth-8x150/rank-7.pt.trace.json.gz" ] || "$cli" synth --ranks 8 --size-mb 150 --gzip --seed 3 --out "$data/synth-8x150" >/dev/null
echo
echo "## B2/B6: open a folder and compute A1-A6"
"$build/bench/kinetoscope-bench-analyses" "$data/synth-8x150"
"$build/bench/kinetoscope-bench-analyses" "$data/synth-8x150" --hta-compat
if [ -d "$shared" ]; then
    echo "## B6 on a real trace (HTA's own times on it: ../shared/reference/diff_control/timings.json)"
    for t in diff_control ns_resolution; do
        "$build/bench/kinetoscope-bench-analyses" "$shared/$t" --hta-compat --hta-timings "$shared/../reference/$t/timings.json"
    done
fi

# B5: timeline frames, 32 ranks (the 8 ranks above, their stores copied) and, with KS_BENCH_BIG=1,
# 1000 ranks of 100 k slices (10 synthetic ranks copied 100 times: 100 M slices, about 5 GB of memory).
if [ -x "$build/bench/kinetoscope-bench-timeline" ]; then
    echo
    load=$(cut -d " " -f 1-3 /proc/loadavg)
    echo "## B5: timeline frames (load average: $load)"
    "$build/bench/kinetoscope-bench-timeline" --replicate 32 --repeat 5 "$data/synth-8x150"
    if [ "${KS_BENCH_BIG:-0}" = "1" ]; then
        [ -f "$data/synth-10x47/rank-9.pt.trace.json.gz" ] || "$cli" synth --ranks 10 --size-mb 47 --gzip --seed 5 --out "$data/synth-10x47" >/dev/null
        "$build/bench/kinetoscope-bench-timeline" --replicate 1000 --repeat 5 "$data/synth-10x47"
    fi
fi

# Issue 21: roofline (shapes re-read from the file) against analyze --only temporal, same run.
echo
echo "## Issue 21: roofline vs analyze --only temporal on the same file"
roofline_inputs=()
[ -d "$shared" ] && roofline_inputs+=("$shared/h100_qwen05b" "$shared/mi300_qwen05b")
roofline_inputs+=("${inputs[@]}" "${big[@]}")
python3 "$here/roofline_benchmark.py" "$cli" --runs "${KS_BENCH_RUNS:-3}" "${roofline_inputs[@]}"

# Issue 38: kinetoscope.hta's load + get_temporal_breakdown against the CLI (and HTA when installed).
if [ -f "$build/python/kinetoscope/__init__.py" ]; then
    echo
    echo "## Issue 38: kinetoscope.hta.TraceAnalysis + get_temporal_breakdown vs analyze --only temporal"
    PYTHONPATH="$build/python" /usr/bin/python3 "$here/python_hta_bench.py" "$cli" --runs "${KS_BENCH_RUNS:-3}" \
        "$data/synth-8x150"
fi

