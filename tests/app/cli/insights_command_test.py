#!/usr/bin/env python3
"""`kinetoscope-cli insights` on every shared trace: it runs, its JSON is a list
of findings, largest gain first, each with every field filled; markdown and csv
print; bad --set / --rules name what is wrong; `check --max-gain` fails past P %;
a finding's gain is the what-if it names (`critical-path --all-ranks --what-if`);
low_efficiency takes --device and --peaks as `roofline` does, says which of
"unknown device" and "no shapes" keeps it from running, and gives one finding
per op family."""
import csv
import io
import json
import os
import tempfile

from cli_test_support import parse_args, run

FIELDS = ("rule", "title", "gain_pct", "severity", "ranks", "iterations", "evidence", "suggestion", "where")


def check_findings(folder, findings):
    assert isinstance(findings, list), folder
    gains = [f["gain_pct"] for f in findings]
    assert gains == sorted(gains, reverse=True), (folder, gains)
    for f in findings:
        for field in FIELDS:
            assert field in f, (folder, field, f)
        for field in ("rule", "title", "severity", "suggestion"):
            assert f[field], (folder, field, f)
        assert f["ranks"] and f["evidence"] and f["where"], (folder, f)
        assert 0 <= f["gain_pct"] <= 100, (folder, f)
        assert f["gain_low_pct"] == f["gain_pct"] <= f["gain_high_pct"] <= 100, (folder, f)
        for w in f["where"]:
            assert "rank" in w and (w["events"] or w["ranges"]) is not None, (folder, w)


def low_efficiency(cli, *args):
    code, out, err = run(cli, "insights", *args, "--rules", "low_efficiency", "--format", "json")
    assert code == 0, (args, err)
    return json.loads(out), err


def check_low_efficiency(cli, traces):
    h100 = os.path.join(traces, "h100_qwen05b")
    # Separate reasons: a device the peak table does not know, a trace without shapes.
    findings, err = low_efficiency(cli, h100, "--device", "Z9000")
    assert not findings and 'not applicable: unknown device "Z9000"' in err, err
    findings, err = low_efficiency(cli, os.path.join(traces, "critical_path_alexnet"), "--device", "H100")
    assert not findings and "not applicable: no input shapes recorded" in err and "record_shapes" in err, err
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "peaks.json")
        with open(bad, "w") as f:
            json.dump({"name": "mine", "matrix_tflops": {"bf16": 708}}, f)
        code, out, err = run(cli, "insights", h100, "--peaks", bad)
        assert code == 2 and err.count("\n") == 1 and bad in err, err
        # A device ten times an H100: every modelled family is far below its roofline,
        # one finding each, pointing at GPU kernels (not the CPU ops).
        fast = os.path.join(tmp, "fast.json")
        with open(fast, "w") as f:
            json.dump({"name": "fast", "memory_bandwidth_gbps": 33500,
                       "matrix_tflops": {"bf16": 9890, "fp16": 9890, "fp32": 9890},
                       "vector_tflops": {"fp32": 670, "bf16": 1340, "fp16": 1340}}, f)
        findings, err = low_efficiency(cli, h100, "--peaks", fast)
        families = [f["title"].split(" kernels")[0] for f in findings]
        assert len(families) >= 2 and len(set(families)) == len(families), families
        assert all(f["rule"] == "low_efficiency" and f["where"][0]["events"] for f in findings), findings


def main():
    a = parse_args("--shared")
    traces = os.path.join(a.shared, "traces")
    if not os.path.isdir(traces):
        print("SKIP: no shared traces at", traces)
        return 0
    total = 0
    for name in sorted(os.listdir(traces)):
        folder = os.path.join(traces, name)
        if not os.path.isdir(folder):
            continue
        code, out, err = run(a.cli, "insights", folder, "--format", "json")
        assert code == 0, (name, code, err)
        findings = json.loads(out)
        check_findings(name, findings)
        total += len(findings)
        # What did not run says why, never as an error.
        for line in err.splitlines():
            assert line.startswith("note: ") and ": not applicable: " in line, (name, line)
    assert total > 0

    gloo = os.path.join(traces, "ddp_gloo_2ranks")
    code, out, err = run(a.cli, "insights", gloo, "--format", "json")
    findings = json.loads(out)
    # Rank 1 is late at every all_reduce: the straggler and the skew it causes lead, both on rank 1
    # (their gains are within a point: the straggler's is its lead over the other rank).
    assert findings[0]["rule"] in ("straggler", "collective_skew") and findings[0]["ranks"] == [1], findings[0]
    straggler = next(f for f in findings[:2] if f["rule"] == "straggler")
    assert straggler["ranks"] == [1], straggler
    # The exposed communication's high end is the what-if it names (its low end is
    # bounded by the compute on the path).
    exposed = next(f for f in findings if f["rule"] == "exposed_communication")
    args = ["critical-path", gloo, "--all-ranks", "--format", "csv"]
    for rule in exposed["what_if"]:
        args += ["--what-if", rule]
    code, out, err = run(a.cli, *args)
    assert code == 0, err
    what_if = out.split("# what_if\n", 1)[1].split("\n\n", 1)[0]
    rows = {r["quantity"]: r for r in csv.DictReader(io.StringIO(what_if))}
    path = rows["path_length"]
    measured = float(rows["iteration_time"]["before_ms"])
    expected = 100 * (float(path["before_ms"]) - float(path["after_ms"])) / measured
    assert abs(exposed["gain_high_pct"] - expected) < 0.01, (exposed["gain_high_pct"], expected)
    assert exposed["gain_low_pct"] == exposed["gain_pct"] <= exposed["gain_high_pct"], exposed

    # Markdown for a ticket, CSV with a header, --rules selects.
    code, out, err = run(a.cli, "insights", gloo, "--format", "markdown")
    assert code == 0 and out.startswith("# Insights") and "rank 1 is the straggler" in out, out[:400]
    assert "## 1. " in out and "## 2. " in out, out[:400]
    code, out, err = run(a.cli, "insights", gloo, "--format", "csv", "--rules", "straggler")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["rule"] for r in rows] == ["straggler"], rows

    # Thresholds by name; bad ones name the rule and the parameter.
    code, out, err = run(a.cli, "insights", gloo, "--format", "json", "--set", "straggler.min_gain_pct=99")
    assert all(f["rule"] != "straggler" for f in json.loads(out))
    code, out, err = run(a.cli, "insights", gloo, "--set", "straggler.bogus=1")
    assert code == 2 and "straggler" in err and "bogus" in err, err
    code, out, err = run(a.cli, "insights", gloo, "--rules", "no_such_rule")
    assert code == 2 and "no_such_rule" in err, err
    code, out, err = run(a.cli, "insights", "--list-rules")
    assert code == 0 and "gpu_idle_sync.min_gain_pct" in out, out

    # check --max-gain: 1 past the limit, 0 within, 3 when the rule cannot run.
    straggler = findings[0]["gain_pct"]
    code, out, err = run(a.cli, "check", gloo, "--max-gain", f"straggler={straggler - 1}")
    assert code == 1 and "FAILED" in out, (code, out, err)
    code, out, err = run(a.cli, "check", gloo, "--max-gain", f"straggler={straggler + 1}")
    assert code == 0 and " ok" in out, (code, out, err)
    code, out, err = run(a.cli, "check", os.path.join(traces, "cuda_event_sync"), "--max-gain", "straggler=1")
    assert code == 3 and "not applicable" in out, (code, out, err)
    code, out, err = run(a.cli, "check", gloo, "--max-gain", "bogus=1")
    assert code == 2 and "bogus" in err, err

    check_low_efficiency(a.cli, traces)
    print("ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
