#!/usr/bin/env python3
"""Issue 28: `critical-path --hta-compat --write-trace` writes HTA's overlaid trace.

../shared/reference/<folder>/overlaid_critical_path.json.gz is what HTA 0.6.1 wrote with
overlay_critical_path_analysis(rank=0, graph, out, only_show_critical_events=False) after
critical_path_analysis(rank=0, annotation, instance_id=0) (annotation "" but
"ProfilerStep" on cuda_event_sync; see the README there). Ours must hold:
  - the same traceEvents, in order, with args.critical = 1 on the same events (every
    other field equal too), and the same other top-level keys;
  - the same flows: as many, each arrow (start and finish, everything but the id,
    which follows a Python set's order in HTA) equal as a multiset.
Exit status 0 only when everything matches.
"""
import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile

from conformance_support import verdict

ANNOTATION = {"cuda_event_sync": "ProfilerStep"}


def is_flow(e):
    return e.get("ph") in ("s", "f") and e.get("name") == "critical_path"


def arrows(events):
    """Multiset of (start, finish) pairs without ids, plus any half arrow."""
    ends = collections.defaultdict(dict)
    for e in events:
        rest = {k: v for k, v in e.items() if k != "id"}
        ends[e["id"]][e["ph"]] = json.dumps(rest, sort_keys=True)
    return collections.Counter((d.get("s"), d.get("f")) for d in ends.values())


def compare(ref, ours):
    problems = []
    ref_keys = {k: v for k, v in ref.items() if k != "traceEvents"}
    our_keys = {k: v for k, v in ours.items() if k != "traceEvents"}
    if ref_keys != our_keys:
        problems.append(f"top-level keys: HTA {sorted(ref_keys)}, here {sorted(our_keys)}")
    ref_events = [e for e in ref["traceEvents"] if not is_flow(e)]
    our_events = [e for e in ours["traceEvents"] if not is_flow(e)]
    crit = lambda evs: [i for i, e in enumerate(evs) if isinstance(e.get("args"), dict) and e["args"].get("critical") == 1]
    if crit(ref_events) != crit(our_events):
        a, b = set(crit(ref_events)), set(crit(our_events))
        problems.append(f"critical events: {len(a)} in HTA, {len(b)} here; only HTA {sorted(a - b)[:10]}, "
                        f"only here {sorted(b - a)[:10]}")
    if len(ref_events) != len(our_events):
        problems.append(f"{len(ref_events)} events in HTA, {len(our_events)} here")
    else:
        differ = [i for i, (r, o) in enumerate(zip(ref_events, our_events)) if r != o]
        if differ:
            problems.append(f"{len(differ)} events differ, first {differ[0]}: HTA {ref_events[differ[0]]}, "
                            f"here {our_events[differ[0]]}")
    ref_arrows = arrows([e for e in ref["traceEvents"] if is_flow(e)])
    our_arrows = arrows([e for e in ours["traceEvents"] if is_flow(e)])
    if ref_arrows != our_arrows:
        only_ref = list((ref_arrows - our_arrows).elements())
        only_our = list((our_arrows - ref_arrows).elements())
        problems.append(f"flows: {sum(ref_arrows.values())} in HTA, {sum(our_arrows.values())} here; "
                        f"{len(only_ref)} only in HTA {only_ref[:3]}, {len(only_our)} only here {only_our[:3]}")
    return problems, len(crit(our_events)), sum(our_arrows.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--folder", required=True)
    a = ap.parse_args()
    ref_path = os.path.join(a.shared, "reference", a.folder, "overlaid_critical_path.json.gz")
    trace_dir = os.path.join(a.shared, "traces", a.folder)
    if not os.path.exists(ref_path) or not os.path.isdir(trace_dir):
        print(f"SKIP: {ref_path} or {trace_dir} is absent")
        return 0
    with gzip.open(ref_path) as f:
        ref = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "overlay.json.gz")
        cmd = [a.cli, "critical-path", trace_dir, "--hta-compat", "--rank", "0", "--annotation",
               ANNOTATION.get(a.folder, ""), "--instance", "0", "--write-trace", out, "--format", "json",
               "--out", tmp]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            print(f"{a.folder}: FAIL exit {proc.returncode}: {proc.stderr.strip()[:300]}")
            return 1
        with gzip.open(out) as f:
            ours = json.load(f)
    problems, n_critical, n_flows = compare(ref, ours)
    return verdict(a.folder, problems, f" ({n_critical} critical events, {n_flows} flows)")


if __name__ == "__main__":
    sys.exit(main())
