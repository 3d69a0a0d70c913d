#!/usr/bin/env python3
"""Checks `kinetoscope-cli info --json` against count_events.py on every trace folder.

For each folder under --traces: the CLI must load every file (no failures), and for
each file report the same total, per-phase and per-category counts as Python's
json module, and the rank listed in traces/README.md. Exit 0 when all agree, 1 on
any difference, 77 (ctest SKIP_RETURN_CODE) when the traces folder is absent.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import count_events  # noqa: E402

# traces/README.md: rank per folder, in rank order. None: no distributedInfo.rank and
# no rank in the file name, so the rank falls back to the file's position (0).
EXPECTED_RANKS = {
    "two_ranks_sampled": [0, 1],
    "diff_control": [3],
    "diff_test": [1],
    "nccl_ns_resolution": [0],
    "ns_resolution": [0],
    "critical_path_alexnet": [0],
    "critical_path_simple_add": [0],
    "cuda_event_sync": [0],
    "cuda_event_sync_multi_stream": [0],
    "amd_rocm": [0],             # fallback: file order
    "mtia_inference": [0],       # fallback: "rank_0" in the file name
    "cpu_only": [34],
    "no_gpu_no_rank": [0],
    "no_distributed_info": [0],  # fallback: file order
    "ddp_gloo_2ranks": [0, 1],   # fallback: "rank-N" in the file name (legacy exporter)
    "rpc_recipe": [0],           # fallback: file order (legacy exporter)
    "h100_qwen05b": [0],         # fallback: file order (TraceLens's test data, no distributedInfo)
    "mi300_qwen05b": [0],        # fallback: file order
    "sglang_decode_capture": [0],
}
EXPECTED_SOURCES = {"amd_rocm": "file order", "no_distributed_info": "file order", "mtia_inference": "file name",
                    "ddp_gloo_2ranks": "file name", "rpc_recipe": "file order",
                    "h100_qwen05b": "file order", "mi300_qwen05b": "file order"}


def run_cli(cli, folder):
    proc = subprocess.run([cli, "info", "--json", folder], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"{cli} info --json {folder} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def compare_rank(rank, expected, errors, where):
    if rank["events"] != expected["events"]:
        errors.append(f"{where}: events {rank['events']} != python {expected['events']}")
    for phase in count_events.PHASES:
        got = rank["by_phase"].get(phase, 0)
        if got != expected["by_phase"][phase]:
            errors.append(f"{where}: phase {phase}: {got} != python {expected['by_phase'][phase]}")
    got_cats = {c: {p: n for p, n in ph.items() if n} for c, ph in rank["by_category"].items()}
    got_cats = {c: ph for c, ph in got_cats.items() if ph}
    if got_cats != expected["by_category"]:
        for cat in sorted(set(got_cats) | set(expected["by_category"])):
            a, b = got_cats.get(cat, {}), expected["by_category"].get(cat, {})
            if a != b:
                errors.append(f"{where}: category {cat!r}: {a} != python {b}")


def check_folder(cli, folder, name, errors):
    expected = {os.path.basename(c["file"]): c for c in
                (count_events.count_file(f) for f in count_events.trace_files(folder)) if c is not None}
    report = run_cli(cli, folder)
    for failure in report.get("failures", []):
        errors.append(f"{name}: failed to load {failure.get('file')}: {failure.get('error')}")
    got = {os.path.basename(r["file"]): r for r in report["ranks"]}
    if set(got) != set(expected):
        errors.append(f"{name}: files {sorted(got)} != python {sorted(expected)}")
    for base in sorted(set(got) & set(expected)):
        compare_rank(got[base], expected[base], errors, f"{name}/{base}")
    ranks = [r["rank"] for r in report["ranks"]]
    if name in EXPECTED_RANKS and ranks != EXPECTED_RANKS[name]:
        errors.append(f"{name}: ranks {ranks} != traces/README.md {EXPECTED_RANKS[name]}")
    want_source = EXPECTED_SOURCES.get(name, "distributedInfo")
    for r in report["ranks"]:
        if r["rank_source"] != want_source:
            errors.append(f"{name}: rank source {r['rank_source']!r} != {want_source!r}")
    # Where the file says its rank, the CLI must use it.
    for base, c in expected.items():
        if c["distributed_rank"] is not None and base in got and got[base]["rank"] != c["distributed_rank"]:
            errors.append(f"{name}/{base}: rank {got[base]['rank']} != distributedInfo.rank {c['distributed_rank']}")
    return sum(c["events"] for c in expected.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="path to kinetoscope-cli")
    parser.add_argument("--traces", required=True, help="the shared traces folder (one subfolder per trace set)")
    args = parser.parse_args()
    if not os.path.isdir(args.traces):
        print(f"SKIP: shared traces not found at {args.traces}")
        return 77
    folders = sorted(d for d in os.listdir(args.traces) if os.path.isdir(os.path.join(args.traces, d)))
    errors = []
    for name in folders:
        if name not in EXPECTED_RANKS:
            errors.append(f"{name}: not listed in EXPECTED_RANKS (add it from traces/README.md)")
        try:
            events = check_folder(args.cli, os.path.join(args.traces, name), name, errors)
            print(f"{name}: {events} events checked")
        except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as e:
            errors.append(f"{name}: {e}")
    for e in errors:
        print("MISMATCH " + e)
    print(f"{len(folders)} folders, {len(errors)} mismatches")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
