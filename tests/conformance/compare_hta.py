#!/usr/bin/env python3
"""Conformance: kinetoscope-cli analyze --hta-compat against HTA's own outputs.

For one trace folder, runs the CLI with --format json --out TMP and compares every
file it wrote with ../shared/reference/<folder>/<same name>:
  - where HTA answered (ok: true): same shape, same columns, same rows matched as
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
    """The columns to compare. Normally all, equal on both sides. Where HTA's frame
    carries its internal symbol ids (`symbol_ids`, from the reference's args), those
    columns are skipped and their text (`s_*`) compared instead: Kinetoscope writes a
    subset of HTA's columns, every one of which must be in HTA's frame, the `s_*` ones
    included."""
    if not symbol_ids:
        if ref["columns"] != ours.get("columns"):
            problems.append(f"{path}: columns {ref['columns']} != {ours.get('columns')}")
            return None
        return ref["columns"]
    theirs = set(ref["columns"])
    mine = ours.get("columns") or []
    missing = [c for c in ref["columns"] if c.startswith("s_") and c not in mine]
    extra = [c for c in mine if c not in theirs and c not in symbol_ids]
    if missing or not mine:
        problems.append(f"{path}: HTA's name columns {missing} are not written here")
        return None
    if extra and "_stored_columns" not in ref.get("_args", {}):
        problems.append(f"{path}: columns {extra} are not in HTA's frame")
        return None
    return [c for c in mine if c in theirs and c not in symbol_ids]


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
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
