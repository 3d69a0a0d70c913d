#!/usr/bin/env python3
"""Conformance: kinetoscope-cli analyze --hta-compat against HTA's own outputs.

For one trace folder, runs the CLI with --format json --out TMP and compares every
file it wrote with ../shared/reference/<folder>/<same name>:
  - where HTA answered (ok: true): same shape, every column HTA wrote (in its order;
    only its symbol-id columns, HTA's own numbering, are not reproduced), same rows matched as
    multisets (HTA's row order is arbitrary under ties), integers exact, floats
    within 1e-9 relative;
  - where HTA raised (ok: false): Kinetoscope must say "not applicable" (ok: false).
Exit status 0 only when every file matches.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from conformance_support import folder_arguments

COMPARED_ELSEWHERE_PREFIXES = ("critical_path_analysis__", "get_frequent_cuda_kernel_sequences",
                               "generate_trace_with_counters")
NOT_HTA_CALLS = {"load.json", "load_summary.json", "timings.json"}

REL = 1e-9
ABS = 1e-9


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def num(v):
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


def same_value(a, b):
    a, b = num(a), num(b)
    if a is None or b is None:
        return a is None and b is None
    if is_num(a) and is_num(b):
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= max(ABS, REL * max(abs(a), abs(b)))
    return a == b


def sort_key(record, columns):
    key = []
    for c in columns:
        v = num(record.get(c))
        if v is None:
            key.append((0, ""))
        elif is_num(v):
            key.append((1, float("%.9g" % v) if not math.isinf(v) else v))
        else:
            key.append((2, str(v)))
    return key


def compared_columns(ref, ours, symbol_ids, path, problems):
    """The columns to compare: every column HTA wrote, in its order. Where HTA's frame
    carries its internal symbol ids (`symbol_ids`, from the reference's args), those are
    HTA's own numbering and are not reproduced: every other column must be written here, in
    HTA's order, and nothing else. Where the reference kept only some columns of a large
    frame (`_stored_columns`, with every column's name in `_all_columns`), ours must still be
    all of HTA's, and the stored ones are compared."""
    mine = ours.get("columns") or []
    stored = ref.get("_args", {}).get("_stored_columns")
    all_columns = (ref["_args"].get("_all_columns") or stored) if stored else ref["columns"]
    # A column X whose text HTA also wrote as s_X holds symbol ids, wherever the reference says so.
    symbol_ids = set(symbol_ids or []) | {c for c in all_columns if "s_" + c in all_columns}
    if stored:
        expected = [c for c in all_columns if c not in symbol_ids]
        if mine != expected:
            problems.append(f"{path}: columns {mine} != HTA's {expected}")
            return None
        return [c for c in ref["columns"] if c not in symbol_ids]
    expected = [c for c in ref["columns"] if c not in symbol_ids]
    if mine != expected:
        missing = [c for c in expected if c not in mine]
        extra = [c for c in mine if c not in expected]
        problems.append(f"{path}: columns differ from HTA's (missing {missing}, not in HTA's frame {extra}, "
                        f"or another order)")
        return None
    return expected


def compare_frames(ref, ours, path, problems, symbol_ids=None):
    columns = compared_columns(ref, ours, symbol_ids, path, problems)
    if columns is None:
        return
    if ref["n_rows"] != ours.get("n_rows"):
        problems.append(f"{path}: {ref['n_rows']} rows in HTA, {ours.get('n_rows')} here")
        return
    a = sorted(ref["records"], key=lambda r: sort_key(r, columns))
    b = sorted(ours["records"], key=lambda r: sort_key(r, columns))
    for i, (ra, rb) in enumerate(zip(a, b)):
        for c in columns:
            if not same_value(ra.get(c), rb.get(c)):
                problems.append(f"{path}: row {i} column '{c}': HTA {ra.get(c)!r}, here {rb.get(c)!r}\n    HTA  {ra}\n    here {rb}")
                return


def compare_results(ref, ours, path, problems, symbol_ids=None):
    kind = ref.get("type")
    if kind != ours.get("type"):
        problems.append(f"{path}: type {kind} != {ours.get('type')}")
        return
    if kind == "dataframe":
        compare_frames(ref, ours, path, problems, symbol_ids)
    elif kind in ("tuple", "list"):
        if len(ref["items"]) != len(ours["items"]):
            problems.append(f"{path}: {len(ref['items'])} items in HTA, {len(ours['items'])} here")
            return
        for i, (x, y) in enumerate(zip(ref["items"], ours["items"])):
            compare_results(x, y, f"{path}[{i}]", problems)
    elif kind == "dict":
        if sorted(ref["items"]) != sorted(ours["items"]):
            problems.append(f"{path}: keys {sorted(ref['items'])} != {sorted(ours['items'])}")
            return
        for k in ref["items"]:
            compare_results(ref["items"][k], ours["items"][k], f"{path}[{k}]", problems)
    elif kind == "scalar":
        if not same_value(ref["value"], ours["value"]):
            problems.append(f"{path}: {ref['value']!r} != {ours['value']!r}")
    elif kind == "none":
        pass
    else:
        problems.append(f"{path}: unknown result type {kind}")


def check_call(ref, ours, problems):
    """One HTA call's reference answer against Kinetoscope's: results compared
    where HTA answered, otherwise Kinetoscope must not answer and must say why."""
    if ref.get("ok"):
        if not ours.get("ok"):
            problems.append(f"HTA answered, Kinetoscope said: {ours.get('error')}")
        else:
            ref_args = ref.get("args") or {}
            if ref["result"].get("type") == "dataframe":
                ref["result"]["_args"] = ref_args
            compare_results(ref["result"], ours["result"], "result", problems, ref_args.get("_symbol_id_columns"))
    elif ours.get("ok"):
        problems.append(f"HTA raised ({ref.get('error', '')[:100]}), Kinetoscope gave a result")
    elif not ours.get("error"):
        problems.append("not applicable without a reason")


def main():
    parsed = folder_arguments(extra=lambda parser: parser.add_argument("--only", default=None))
    if not parsed:
        return 0
    args, traces, reference = parsed
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as out:
        command = [args.cli, "analyze", traces, "--hta-compat", "--format", "json", "--out", out]
        if args.only:
            command += ["--only", args.only]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL: {' '.join(command)} exited {run.returncode}\n{run.stderr}")
            return 1
        for name in sorted(os.listdir(out)):
            ref_path = os.path.join(reference, name)
            if not os.path.exists(ref_path):
                continue
            checked += 1
            ref = json.load(open(ref_path))
            ours = json.load(open(os.path.join(out, name)))
            problems = []
            check_call(ref, ours, problems)
            status = "ok  " if not problems else "FAIL"
            print(f"{status} {args.folder}/{name}")
            for p in problems[:3]:
                print("     " + p)
            failures += bool(problems)
        # Every HTA answer of the folder is checked: a reference this run did not write is a
        # failure, except those other scripts compare (critical path, counter trace, kernel
        # sequences: compare_critical_path.py, compare_issue4.py) and the load records.
        written = set(os.listdir(out))
        for name in sorted(os.listdir(reference)):
            if name in written or not name.endswith(".json") or name.startswith(COMPARED_ELSEWHERE_PREFIXES) \
                    or name in NOT_HTA_CALLS:
                continue
            print(f"FAIL {args.folder}/{name}\n     HTA answered this call; nothing was written here")
            failures += 1
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
