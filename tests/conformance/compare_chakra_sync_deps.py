#!/usr/bin/env python3
"""Issue 28: `kinetoscope-cli critical-path --sync-deps` is Chakra's sync-dependency map.

../shared/reference/chakra/<trace>.json holds, for one shared trace, what Chakra's
own trace linker (TraceLinker.load_sync_dependencies, mlcommons/chakra 21585d8) builds
over the HTA that --hta-compat follows (f4d0062):
  - chakra_sync_deps: {waiting op's External id: [GPU op's External id, ...]} from the
    SYNC_DEPENDENCY edges on the critical path only;
  - all_sync_edges: the same form from every sync edge of HTA's graph.
The CLI, called as Chakra calls HTA (--hta-compat, the reference's rank, annotation
and instance), must give the first by default and the second with --all-sync-edges,
under "chakra_sync_deps" with integer ids. Chakra's lists follow a Python set's order,
so each list is compared as a multiset. Every row says whether it is on the path.
Without --hta-compat (the default mode's path) the map is Chakra's too on these traces:
they were recorded with CUDA sync events, so nothing is inferred.
Exit status 0 only when everything matches.
"""
import argparse
import collections
import csv
import io
import json
import os
import subprocess
import sys

from conformance_support import verdict


def run(cli, args):
    proc = subprocess.run([cli, *args], capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def as_multisets(mapping):
    return {str(k): collections.Counter(v) for k, v in mapping.items()}


def check_map(label, ref, got, problems):
    for key, ids in got.items():
        if not all(type(i) is int for i in ids):
            problems.append(f"{label}: ids of {key} are not JSON integers: {ids}")
    if as_multisets(ref) != as_multisets(got):
        only_ref = {k: v for k, v in ref.items() if collections.Counter(v) != collections.Counter(got.get(k, []))}
        only_got = {k: v for k, v in got.items() if collections.Counter(v) != collections.Counter(ref.get(k, []))}
        problems.append(f"{label}: Chakra {only_ref}, here {only_got}")


def check(cli, shared, name):
    chakra_dir = os.path.join(shared, "reference", "chakra")
    with open(os.path.join(chakra_dir, name + ".json")) as f:
        ref = json.load(f)
    trace = os.path.normpath(os.path.join(chakra_dir, ref["trace"]))
    if not os.path.exists(trace):
        return [f"{trace} is absent"]
    base = ["critical-path", trace, "--hta-compat", "--rank", str(ref["rank"]), "--annotation",
            ref["annotation"], "--instance", str(ref["instance_id"]), "--sync-deps"]
    problems = []
    outputs = {}
    for label, extra, expected in (("critical path", [], ref["chakra_sync_deps"]),
                                   ("all sync edges", ["--all-sync-edges"], ref["all_sync_edges"])):
        code, out, err = run(cli, base + extra + ["--format", "json"])
        if code != 0:
            problems.append(f"{label}: exit {code}: {err.strip()[:300]}")
            continue
        got = json.loads(out)
        outputs[label] = got
        if got.get("ok") is not True:
            problems.append(f"{label}: not ok: {got}")
            continue
        check_map(label, expected, got["chakra_sync_deps"], problems)
        rows = got["sync_dependencies"]
        if not all(isinstance(r.get("on_critical_path"), bool) for r in rows):
            problems.append(f"{label}: a row without on_critical_path")
        if not extra and not all(r["on_critical_path"] for r in rows):
            problems.append(f"{label}: a row off the critical path in the default output")
    if len(outputs) == 2:
        # The path's rows of --all-sync-edges are exactly the default rows.
        key = lambda r: (r["start"]["event_index"], r["end"]["event_index"])
        on_path = sorted(key(r) for r in outputs["all sync edges"]["sync_dependencies"] if r["on_critical_path"])
        default = sorted(key(r) for r in outputs["critical path"]["sync_dependencies"])
        if on_path != default:
            problems.append(f"on_critical_path rows of --all-sync-edges {on_path} != default rows {default}")
    # The default mode's path gives Chakra's map on these traces as well.
    default_mode = [a for a in base if a != "--hta-compat"]
    code, out, err = run(cli, default_mode + ["--format", "json"])
    if code != 0:
        problems.append(f"default mode: exit {code}: {err.strip()[:300]}")
    else:
        check_map("default mode", ref["chakra_sync_deps"], json.loads(out)["chakra_sync_deps"], problems)
    # csv carries the column too, one row per dependency.
    code, out, err = run(cli, base + ["--all-sync-edges", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out.split("\n", 1)[1] if out.startswith("#") else out)))
    if code != 0 or not rows or "on_critical_path" not in rows[0] \
            or len(rows) != len(outputs.get("all sync edges", {}).get("sync_dependencies", [])):
        problems.append(f"csv: exit {code}, {len(rows)} rows, columns {list(rows[0]) if rows else []}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--trace", required=True, help="a file name (without .json) in reference/chakra")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.shared, "reference", "chakra", a.trace + ".json")):
        print(f"SKIP: no Chakra reference for {a.trace}")
        return 0
    return verdict(a.trace, check(a.cli, a.shared, a.trace))


if __name__ == "__main__":
    sys.exit(main())
