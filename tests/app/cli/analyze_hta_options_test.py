#!/usr/bin/env python3
"""`kinetoscope-cli analyze` with the arguments of issue 22's HTA calls as options:
each is accepted, changes what it should, and a bad value exits 2 with the usage."""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def analyze_json(cli, folder, *args):
    with tempfile.TemporaryDirectory() as out:
        code, _, err = run(cli, "analyze", folder, "--format", "json", "--out", out, *args)
        assert code == 0, err
        return {name: json.load(open(os.path.join(out, name))) for name in os.listdir(out)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    two = os.path.join(a.shared, "traces", "two_ranks_sampled")
    event_sync = os.path.join(a.shared, "traces", "cuda_event_sync")
    if not os.path.isdir(two) or not os.path.isdir(event_sync):
        print(f"SKIP: {two} is absent")
        return 0
    failures = []
    checked = []

    def check(ok, what):
        checked.append(what)
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    files = analyze_json(a.cli, two, "--only", "user-annotations", "--use-cpu-annotation")
    check(sorted(files) == ["get_gpu_user_annotation_breakdown__cpu.json"], "--use-cpu-annotation: the CPU call only")
    rows = files["get_gpu_user_annotation_breakdown__cpu.json"]["result"]["records"]
    files = analyze_json(a.cli, two, "--only", "user-annotations", "--use-cpu-annotation", "--num-kernels", "3",
                         "--duration-ratio", "1")
    few = files["get_gpu_user_annotation_breakdown__cpu.json"]["result"]["records"]
    check(len(few) < len(rows) and any(r["name"] == "others" for r in few), "--num-kernels 3 folds into others")
    files = analyze_json(a.cli, two, "--only", "user-annotations", "--use-cpu-annotation", "--num-kernels", "3",
                         "--duration-ratio", "1", "--allowlist", "^## ")
    kept = files["get_gpu_user_annotation_breakdown__cpu.json"]["result"]["records"]
    check(sum(r["name"].startswith("## ") for r in kept) > sum(r["name"].startswith("## ") for r in few),
          "--allowlist keeps matching annotations out of others")

    files = analyze_json(a.cli, two, "--only", "queue-blocked", "--max-queue-length", "4")
    blocked = files["get_time_spent_blocked_on_full_queue.json"]
    check(blocked["args"].get("max_queue_length") == 4 and blocked["result"]["n_rows"] > 0,
          "--max-queue-length 4 finds full queues")

    files = analyze_json(a.cli, two, "--only", "potential-stragglers", "--num-candidates", "1")
    check(len(files["get_potential_stragglers.json"]["result"]["items"]) == 1, "--num-candidates 1: one rank")

    files = analyze_json(a.cli, event_sync, "--only", "aten-op-delay", "--sort-by", "avg_runtime_delay")
    records = files["get_aten_op_kernels_and_delay.json"]["result"]["items"]["0"]["records"]
    delays = [r["avg_runtime_delay_us"] for r in records]
    check(delays == sorted(delays, reverse=True) and len(delays) == 3, "--sort-by avg_runtime_delay orders rows")

    for bad in (["--duration-ratio", "2"], ["--num-kernels", "x"], ["--max-queue-length", "0"],
                ["--num-candidates", "0"], ["--sort-by", "size"], ["--allowlist"]):
        code, _, err = run(a.cli, "analyze", two, *bad)
        check(code == 2 and "usage:" in err, f"{' '.join(bad)} exits 2")

    print(f"{len(checked) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
