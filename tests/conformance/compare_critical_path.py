#!/usr/bin/env python3
"""Conformance of `kinetoscope-cli critical-path --hta-compat` against HTA's outputs.

For one trace folder (and optionally one reference file), runs the CLI with the
arguments HTA was called with (../shared/reference/<folder>/critical_path_analysis__*.json)
and compares:
  - where HTA answered (ok: true): success, clipped rows, node and edge counts,
    edge type counts and weight sums, total path weight, path node count, the
    bound-type summary (%) and sums, the set of sync-dependency edges and the
    multiset of all edges must be equal. The path itself (edge sequence and
    breakdown) may differ only under ties: a different path with the same
    totals is reported as a note, not a failure.
  - where HTA raised (ok: false): Kinetoscope must say "not applicable" (ok: false).
Exit status 0 only when every compared file matches.
"""
import argparse
import collections
import glob
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

from conformance_support import folder_arguments

REL = 1e-9


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= max(1e-9, REL * max(abs(a), abs(b)))
    return a == b


def run_cli(cli, folder_path, args, out_dir):
    instance = args.get("instance_id")
    if instance is None:
        instance_text = "0"
    elif isinstance(instance, (list, tuple)):
        instance_text = f"{instance[0]}:{instance[1]}"
    else:
        instance_text = str(instance)
    cmd = [cli, "critical-path", folder_path, "--rank", str(args.get("rank", 0)),
           "--annotation", args.get("annotation", ""), "--instance", instance_text,
           "--hta-compat", "--format", "json", "--out", out_dir]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    path = os.path.join(out_dir, "critical_path_analysis.json")
    if proc.returncode != 0 or not os.path.exists(path):
        return None, f"CLI failed ({proc.returncode}): {proc.stderr.strip()[:500]}"
    with open(path) as f:
        return json.load(f), None


def sync_key(e):
    return (e["src_event"], e["src_is_start"], e["dst_event"], e["dst_is_start"])


def compare_dict(name, ref, ours, problems):
    ref = ref or {}
    ours = ours or {}
    if set(ref) != set(ours):
        problems.append(f"{name}: keys {sorted(ref)} != {sorted(ours)}")
        return
    for k in ref:
        if not close(ref[k], ours[k]):
            problems.append(f"{name}[{k!r}]: HTA {ref[k]!r}, here {ours[k]!r}")


def compare_result(ref, ours, problems, notes):
    for key in ("success", "rank", "clipped_trace_rows", "n_nodes", "n_edges",
                "critical_path_n_nodes", "critical_path_total_weight",
                "critical_path_first_ts", "critical_path_last_ts"):
        if not close(ref.get(key), ours.get(key)):
            problems.append(f"{key}: HTA {ref.get(key)!r}, here {ours.get(key)!r}")
    compare_dict("edge_type_counts", ref.get("edge_type_counts"), ours.get("edge_type_counts"), problems)
    compare_dict("edge_type_weight_sum", ref.get("edge_type_weight_sum"), ours.get("edge_type_weight_sum"), problems)
    compare_dict("duration_sum_by_bound_type", ref.get("duration_sum_by_bound_type"),
                 ours.get("duration_sum_by_bound_type"), problems)
    ref_pct = {r["bound_by"]: r["duration"] for r in (ref.get("summary_pct_by_bound_type") or {}).get("records", [])}
    our_pct = {r["bound_by"]: r["duration"] for r in (ours.get("summary_pct_by_bound_type") or {}).get("records", [])}
    compare_dict("summary_pct_by_bound_type", ref_pct, our_pct, problems)

    ref_sync = collections.Counter(sync_key(e) for e in ref.get("sync_dependency_edges", []))
    our_sync = collections.Counter(sync_key(e) for e in ours.get("sync_dependency_edges", []))
    if ref_sync != our_sync:
        problems.append(f"sync_dependency_edges: only in HTA {sorted((ref_sync - our_sync).elements())[:10]}, "
                        f"only here {sorted((our_sync - ref_sync).elements())[:10]}")

    ref_all = collections.Counter(tuple(e) for e in ref.get("all_edges", []))
    our_all = collections.Counter(tuple(e) for e in ours.get("all_edges", []))
    if ref_all != our_all:
        only_ref = sorted((ref_all - our_all).elements())
        only_our = sorted((our_all - ref_all).elements())
        problems.append(f"all_edges: {len(only_ref)} only in HTA {only_ref[:8]}, {len(only_our)} only here {only_our[:8]}")

    def path(r):
        return [(e["src_event"], e["src_is_start"], e["dst_event"], e["dst_is_start"], e["type"])
                for e in r.get("critical_path_edges", [])]
    if path(ref) != path(ours):
        notes.append("critical path edge sequence differs (equal-length paths under ties)")
    elif ref.get("breakdown") and ours.get("breakdown"):
        cols = ref["breakdown"]["columns"]
        def rows(b):
            return sorted(json.dumps([r.get(c) for c in cols], sort_keys=True) for r in b["records"])
        if rows(ref["breakdown"]) != rows(ours["breakdown"]):
            problems.append("breakdown rows differ on the same path")


def main():
    parsed = folder_arguments(__doc__, lambda parser: parser.add_argument(
        "--ref", help="one reference file name (default: every critical_path_analysis__*.json)"))
    if not parsed:
        return 0
    opts, trace_dir, ref_dir = parsed
    names = [opts.ref] if opts.ref else sorted(
        os.path.basename(p) for pattern in ("critical_path_analysis__*.json", "critical_path_analysis__*.json.gz")
        for p in glob.glob(os.path.join(ref_dir, pattern)))
    if not names:
        print(f"SKIP: no critical path reference in {ref_dir}")
        return 0
    failures = 0
    for name in names:
        # A large reference is stored gzipped (critical_path_analysis__default.json.gz).
        opener = gzip.open if name.endswith(".gz") else open
        with opener(os.path.join(ref_dir, name), "rt") as f:
            ref = json.load(f)
        with tempfile.TemporaryDirectory() as tmp:
            ours, error = run_cli(opts.cli, trace_dir, ref.get("args", {}), tmp)
        label = f"{opts.folder}/{name}"
        if error:
            print(f"{label}: FAIL {error}")
            failures += 1
            continue
        if not ref["ok"]:
            if ours.get("ok"):
                print(f"{label}: FAIL HTA raised ({ref.get('error', '')[:80]}) but Kinetoscope answered")
                failures += 1
            else:
                print(f"{label}: ok (not applicable: {ours.get('error')})")
            continue
        if not ours.get("ok"):
            print(f"{label}: FAIL not applicable here: {ours.get('error')}")
            failures += 1
            continue
        problems, notes = [], []
        compare_result(ref["result"], ours["result"], problems, notes)
        if problems:
            failures += 1
            print(f"{label}: FAIL")
            for p in problems:
                print(f"  - {p}")
        else:
            print(f"{label}: ok" + (f" ({'; '.join(notes)})" if notes else ""))
    print(f"summary: {len(names) - failures}/{len(names)} critical path files match")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
