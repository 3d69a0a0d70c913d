#!/usr/bin/env python3
"""Conformance of issue 4's outputs against HTA's own, for one shared folder.

- Frequent CUDA kernel sequences: for every reference file
  get_frequent_cuda_kernel_sequences__<op>.json, runs
  `kinetoscope-cli analyze F --hta-compat --only sequences --kernel-sequences <op>`
  and compares the frame (rows as multisets, as compare_hta.py does); where HTA
  raised, Kinetoscope must say "not applicable". The annotated trace must be
  valid JSON with the top patterns marked.
- Counter-augmented trace: runs `kinetoscope-cli counters F --write-trace
  --hta-compat --out TMP/` and summarises the written files the way the
  reference generate_trace_with_counters.json does (file names, gzip, event
  counts, counter events by name, first 200 and last 20 counter events).
- Trace diff (folder diff_control_vs_test): `kinetoscope-cli diff diff_control
  diff_test --hta-compat --format json --out TMP` against the five reference files.
Exit status 0 only when everything matches.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_hta import check_call, same_value  # noqa: E402

SEQUENCES_PREFIX = "get_frequent_cuda_kernel_sequences__"


def load_trace(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        return json.load(f), magic == b"\x1f\x8b"


def check_overlaid(out_dir, result, problems):
    overlaid = [n for n in os.listdir(out_dir) if n.startswith("overlaid_")]
    records = result.get("result", {}).get("records", [])
    if not records:
        if overlaid:
            problems.append("an annotated trace was written without any pattern")
        return
    if len(overlaid) != 1:
        problems.append(f"expected one overlaid_ trace, found {overlaid}")
        return
    doc, _ = load_trace(os.path.join(out_dir, overlaid[0]))
    marked = {}
    for e in doc["traceEvents"]:
        args = e.get("args")
        if isinstance(args, dict) and "Patterns" in args:
            for p, c in args["Patterns"].items():
                marked[p] = c
    top = {r["pattern"]: r["count"] for r in records[:5]}
    if marked != top:
        problems.append(f"annotated trace marks {len(marked)} patterns, expected the top {len(top)}")


def run_sequences(cli, traces, reference, folder):
    failures = checked = 0
    for name in sorted(os.listdir(reference)):
        if not name.startswith(SEQUENCES_PREFIX):
            continue
        ref = json.load(open(os.path.join(reference, name)))
        if ref.get("skipped") or "args" not in ref:
            continue
        op = ref["args"]["operator_name"]
        checked += 1
        problems = []
        with tempfile.TemporaryDirectory() as out:
            command = [cli, "analyze", traces, "--hta-compat", "--only", "sequences", "--kernel-sequences", op,
                       "--format", "json", "--out", out]
            run = subprocess.run(command, capture_output=True, text=True)
            path = os.path.join(out, name)
            if run.returncode != 0 or not os.path.exists(path):
                problems.append(f"{' '.join(command)} exited {run.returncode} without {name}\n{run.stderr}")
            else:
                ours = json.load(open(path))
                check_call(ref, ours, problems)
                if ours.get("ok"):
                    check_overlaid(out, ours, problems)
        failures += report(folder, name, problems)
    return checked, failures


def counter_summary(path):
    doc, compressed = load_trace(path)
    events = doc["traceEvents"]
    counters = [e for e in events if e.get("ph") == "C"]
    by_name = {}
    for e in counters:
        by_name[e["name"]] = by_name.get(e["name"], 0) + 1
    return {
        "gzip_compressed": compressed,
        "n_events_total": len(events),
        "n_counter_events": len(counters),
        "counter_events_by_name": by_name,
        "counter_events_first_200": counters[:200],
        "counter_events_last_20": counters[-20:],
    }


def same_event(a, b):
    if sorted(a) != sorted(b):
        return False
    for k in a:
        if isinstance(a[k], dict):
            if not isinstance(b[k], dict) or sorted(a[k]) != sorted(b[k]):
                return False
            if not all(same_value(a[k][x], b[k][x]) for x in a[k]):
                return False
        elif not same_value(a[k], b[k]):
            return False
    return True


def event_key(e):
    return (e["name"], e.get("id", -1), float(e["ts"]), json.dumps(e["args"], sort_keys=True))


def compare_event_lists(ref, ours, what, problems):
    if len(ref) != len(ours):
        problems.append(f"{what}: {len(ref)} events in HTA, {len(ours)} here")
        return
    if all(same_event(a, b) for a, b in zip(ref, ours)):
        return
    # Queue-length points at equal timestamps are in an arbitrary order in HTA: compare as multisets.
    a = sorted(ref, key=event_key)
    b = sorted(ours, key=event_key)
    for x, y in zip(a, b):
        if not same_event(x, y):
            problems.append(f"{what}: HTA {x}, here {y}")
            return


def run_counters(cli, traces, reference, folder):
    ref_path = os.path.join(reference, "generate_trace_with_counters.json")
    if not os.path.exists(ref_path):
        return 0, 0
    ref = json.load(open(ref_path))["result"]["value"]
    problems = []
    with tempfile.TemporaryDirectory() as out:
        command = [cli, "counters", traces, "--write-trace", "--hta-compat", "--out", out + "/"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            problems.append(f"{' '.join(command)} exited {run.returncode}\n{run.stderr}")
        else:
            written = sorted(n for n in os.listdir(out))
            if written != sorted(ref["new_files"]):
                problems.append(f"files {written}, HTA wrote {sorted(ref['new_files'])}")
            for name in written:
                if name not in ref["per_file"]:
                    continue
                expected = ref["per_file"][name]
                ours = counter_summary(os.path.join(out, name))
                for key in ("gzip_compressed", "n_events_total", "n_counter_events", "counter_events_by_name"):
                    if expected[key] != ours[key]:
                        problems.append(f"{name}: {key} HTA {expected[key]!r}, here {ours[key]!r}")
                compare_event_lists(expected["counter_events_first_200"], ours["counter_events_first_200"],
                                    name + " first 200", problems)
                compare_event_lists(expected["counter_events_last_20"], ours["counter_events_last_20"],
                                    name + " last 20", problems)
    return 1, report(folder, "generate_trace_with_counters.json", problems)


def run_diff(cli, shared, reference, folder):
    problems_by_file = {}
    with tempfile.TemporaryDirectory() as out:
        command = [cli, "diff", os.path.join(shared, "traces", "diff_control"),
                   os.path.join(shared, "traces", "diff_test"), "--hta-compat", "--format", "json", "--out", out]
        run = subprocess.run(command, capture_output=True, text=True)
        for name in sorted(os.listdir(reference)):
            if not (name.startswith("compare_traces") or name == "ops_diff.json"):
                continue
            problems = []
            path = os.path.join(out, name)
            if run.returncode != 0 or not os.path.exists(path):
                problems.append(f"{' '.join(command)} exited {run.returncode} without {name}\n{run.stderr}")
            else:
                check_call(json.load(open(os.path.join(reference, name))), json.load(open(path)), problems)
            problems_by_file[name] = problems
    failures = sum(report(folder, n, p) for n, p in problems_by_file.items())
    return len(problems_by_file), failures


def report(folder, name, problems):
    print(f"{'ok  ' if not problems else 'FAIL'} {folder}/{name}")
    for p in problems[:3]:
        print("     " + p)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--shared", required=True)
    parser.add_argument("--folder", required=True, help="a folder of shared/reference")
    args = parser.parse_args()

    reference = os.path.join(args.shared, "reference", args.folder)
    if not os.path.isdir(reference):
        print(f"SKIP: {reference} is absent")
        return 0
    if args.folder == "diff_control_vs_test":
        if not all(os.path.isdir(os.path.join(args.shared, "traces", d)) for d in ("diff_control", "diff_test")):
            print("SKIP: diff_control or diff_test traces are absent")
            return 0
        checked, failures = run_diff(args.cli, args.shared, reference, args.folder)
    else:
        traces = os.path.join(args.shared, "traces", args.folder)
        if not os.path.isdir(traces):
            print(f"SKIP: {traces} is absent")
            return 0
        c1, f1 = run_sequences(args.cli, traces, reference, args.folder)
        c2, f2 = run_counters(args.cli, traces, reference, args.folder)
        checked, failures = c1 + c2, f1 + f2
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
