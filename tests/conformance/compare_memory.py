#!/usr/bin/env python3
"""`kinetoscope-cli memory --format json` against the TensorBoard plugin's Memory view
and HTA #223's memory timeline on one shared trace (../shared/reference/<folder>/memory,
spec ../shared/spec/memory-semantics.md).

Default mode against the plugin's tables with HIP counted as CUDA (the `.hip_as_cuda`
files where the trace is ROCm's, else the plain ones); --tb-compat against the plain
files (on ROCm the plugin's statistics know the CPU only). Every row and column of the
Memory Statistics, the Memory Events (times to the plugin's 2 decimals) and the curve's
points; the peaks of run.json; HTA's totals per device and every row and column of HTA's
get_memory_timeline_per_category (events, per-category timelines, stack names)."""
import csv
import json
import os
import subprocess
import sys

from conformance_support import folder_arguments, verdict


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def memory_json(cli, traces, *extra):
    run = subprocess.run([cli, "memory", traces, "--format", "json", "--curve-points", "1000000000", *extra],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"memory {' '.join(extra)} exited {run.returncode}: {run.stderr.strip()}")
    return json.loads(run.stdout)["ranks"][0]


def number(text):
    return None if text == "" else float(text)


def compare_stats(got, expected, label, problems):
    key = lambda r: (r["device"], r["operator"])
    want = {key(r): r for r in expected}
    have = {key(r): r for r in got}
    for k in sorted(set(want) - set(have)):
        problems.append(f"{label} stats: row {k} missing")
    for k in sorted(set(have) - set(want)):
        problems.append(f"{label} stats: extra row {k}")
    columns = ["calls", "size_increase_b", "self_size_increase_b", "allocation_count", "self_allocation_count",
               "allocation_size_b", "self_allocation_size_b"]
    for k in sorted(set(want) & set(have)):
        for c in columns:
            if float(want[k][c]) != float(have[k][c]):
                problems.append(f"{label} stats {k} {c}: {have[k][c]} != {want[k][c]}")


def display_round(value):
    """The plugin's DisplayRounder(2)."""
    if value is None:
        return None
    if value == 0 or abs(value) >= 0.01:
        return round(value, 2)
    digits = 0
    v = abs(value)
    while v < 0.1:
        v *= 10
        digits += 1
    return round(value, digits + 1)


def compare_events(got, expected, label, problems):
    by_device = {}
    for r in got:
        by_device.setdefault(r["device"], []).append(r)
    want_by_device = {}
    for r in expected:
        want_by_device.setdefault(r["device"], []).append(r)
    for device, want in want_by_device.items():
        have = by_device.get(device, [])
        if len(have) != len(want):
            problems.append(f"{label} events {device}: {len(have)} rows, expected {len(want)}")
            continue
        for i, (h, w) in enumerate(zip(have, want)):
            if h["operator"] != w["operator"] or float(h["size_b"]) != float(w["size_b"]):
                problems.append(f"{label} events {device}[{i}]: {h['operator']} {h['size_b']} != "
                                f"{w['operator']} {w['size_b']}")
                continue
            for c in ("allocation_time_us", "release_time_us", "duration_us"):
                a, b = display_round(h[c]), number(w[c])
                if (a is None) != (b is None) or (a is not None and abs(a - b) > 0.011):
                    problems.append(f"{label} events {device}[{i}] {c}: {h[c]} != {w[c]}")
        if len(problems) > 20:
            return
    for device in set(by_device) - set(want_by_device):
        problems.append(f"{label} events: device {device} not in the reference")


def compare_curve(rank, expected, label, problems):
    curves = {d["device"]: d.get("curve", []) for d in rank["devices"]}
    want_by_device = {}
    for r in expected:
        want_by_device.setdefault(r["device"], []).append(r)
    for device, want in want_by_device.items():
        have = curves.get(device, [])
        if len(have) != len(want):
            problems.append(f"{label} curve {device}: {len(have)} points, expected {len(want)}")
            continue
        for i, (h, w) in enumerate(zip(have, want)):
            if abs(h[0] - float(w["time_us"])) > 0.002 or h[1] != float(w["allocated_b"]) \
                    or h[2] != float(w["reserved_b"]):
                problems.append(f"{label} curve {device}[{i}]: {h} != {dict(w)}")
                break


def compare_peaks(rank, run, label, problems):
    peaks = run.get("tb", {}).get("curve_metadata", {}).get("peaks", {})
    devices = {d["device"]: d for d in rank["devices"]}
    for device, text in peaks.items():
        want = float(text.split(":")[1].strip().rstrip("MB"))
        have = devices.get(device, {}).get("peak_allocated_b")
        if have is None or abs(round(have / 2**20, 1) - want) > 1e-9:
            problems.append(f"{label} peak {device}: {have} B, the plugin says {text}")


def compare_hta_totals(rank, hta_rows, label, problems):
    """HTA's timeline returns the records' own totals: per device, the same multiset of
    (total_allocated, total_reserved) as our curve's points."""
    curves = {d["device"]: sorted((p[1], p[2]) for p in d.get("curve", [])) for d in rank["devices"]}
    by_device = {}
    for r in hta_rows:
        name = "CPU" if int(r["device_type"] if r["device_type"].isdigit() else 0) == 0 else f"GPU{r['device_id']}"
        by_device.setdefault(name, []).append((int(r["total_allocated"]), int(r["total_reserved"])))
    for device, want in by_device.items():
        if curves.get(device) != sorted(want):
            problems.append(f"{label} HTA timeline {device}: totals differ ({len(curves.get(device, []))} "
                            f"points, HTA {len(want)})")


def hta_cell(value):
    """A JSON value as the reference's CSV writes it: lists `;`-joined, booleans 1/0, None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    return str(value)


def same_cell(have, want):
    """Equal text, or equal numbers (HTA writes float columns as `4191.0`), within the
    events table's float tolerance for non-integers."""
    if have == want:
        return True
    try:
        a, b = float(have), float(want)
    except ValueError:
        return False
    return a == b or (a != int(a) and abs(a - b) <= 0.011)


def compare_hta_table(got, ref_path, label, problems, name_of=None):
    """Every row and column of one HTA #223 reference against the JSON rows, in order."""
    if not os.path.exists(ref_path):
        problems.append(f"{label}: reference {ref_path} is missing")
        return
    want = rows(ref_path)
    if len(got) != len(want):
        problems.append(f"{label}: {len(got)} rows, the reference has {len(want)}")
    reported = 0
    for i, (h, w) in enumerate(zip(got, want)):
        for column, expected in w.items():
            if name_of is not None:
                have = name_of(h, column)
            elif column not in h:
                problems.append(f"{label}: column {column} missing")
                return
            else:
                have = hta_cell(h[column])
            if not same_cell(have, expected):
                problems.append(f"{label}[{i}] {column}: {have!r} != {expected!r}")
                reported += 1
                if reported >= 10:
                    return


def compare_hta_categories(rank, ref, label, problems):
    """get_memory_timeline_per_category (spec HTA.6): its events frame, its per-category
    timelines (with the position `i` within the device) and the stack names."""
    classified = rank.get("hta_classified", [])
    compare_hta_table(classified, os.path.join(ref, "hta_memory_events_classified.csv"),
                      f"{label} HTA classified", problems)
    timeline = []
    for r in rank.get("hta_categories", []):
        i = timeline[-1]["i"] + 1 if timeline and timeline[-1]["device"] == r["device"] else 0
        timeline.append(dict(r, i=i))
    compare_hta_table(timeline, os.path.join(ref, "hta_memory_per_category.csv"),
                      f"{label} HTA per category", problems)
    names = [{"stack_name_id": k, "stack_name": n} for k, n in enumerate(rank.get("hta_stack_names", []))]
    compare_hta_table(names, os.path.join(ref, "hta_stack_names.csv"), f"{label} HTA stack names", problems)


def main():
    parsed = folder_arguments(__doc__)
    if parsed is None:
        return 0
    args, traces, reference = parsed
    ref = os.path.join(reference, "memory")
    if not os.path.isdir(ref):
        print(f"SKIP: {ref} is absent")
        return 0
    with open(os.path.join(ref, "run.json")) as f:
        run = json.load(f)
    problems = []
    hip = os.path.exists(os.path.join(ref, "tb_memory_stats.hip_as_cuda.csv"))
    suffix = ".hip_as_cuda.csv" if hip else ".csv"

    default = memory_json(args.cli, traces)
    compare_stats(default["stats"], rows(os.path.join(ref, "tb_memory_stats" + suffix)), "default", problems)
    compare_events(default["events"], rows(os.path.join(ref, "tb_memory_events" + suffix)), "default", problems)
    compare_curve(default, rows(os.path.join(ref, "tb_memory_curve_points" + suffix)), "default", problems)
    if not hip:
        compare_peaks(default, run, "default", problems)
    compare_hta_totals(default, rows(os.path.join(ref, "hta_memory_timeline.csv")), "default", problems)
    compare_hta_categories(default, ref, "default", problems)

    compat = memory_json(args.cli, traces, "--tb-compat")
    compare_stats(compat["stats"], rows(os.path.join(ref, "tb_memory_stats.csv")), "tb-compat", problems)
    if not hip:  # on ROCm the plugin's curve and events fail (run.json: TypeError)
        compare_events(compat["events"], rows(os.path.join(ref, "tb_memory_events.csv")), "tb-compat", problems)
        compare_curve(compat, rows(os.path.join(ref, "tb_memory_curve_points.csv")), "tb-compat", problems)
        compare_peaks(compat, run, "tb-compat", problems)
    else:
        gpus = [d["device"] for d in compat["devices"] if d["device"] != "CPU"]
        if gpus:
            problems.append(f"tb-compat: HIP devices {gpus} listed, the plugin knows none")
    start = run.get("tb", {}).get("profiler_start_ts_us")
    if start is not None and abs(default["time_base_us"] - start) > 0.002:
        problems.append(f"time base {default['time_base_us']} != the plugin's profiler_start_ts {start}")
    return verdict(f"memory conformance {args.folder}", problems)


if __name__ == "__main__":
    sys.exit(main())
