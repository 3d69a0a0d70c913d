#!/usr/bin/env python3
"""Issue 35, item 5: what real producers write loads, and `info` names it.

A trace with NCCL's uint64 Comms Id and a uint64 correlation, a name cut inside a UTF-8
character, raw control characters in a torch._dynamo name, a negative sub-µs duration and
a kernel of 10 days (corrupted CUPTI timestamps). `info --json` counts each with an
example and keeps every other event; `--max-event-duration US` (any command, anywhere on
its command line) moves the limit, 0 turns it off, and a bad value is one line, exit 2."""
import json
import os
import sys
import tempfile

from cli_test_support import parse_args, run, run_expecting

EVENTS = [
    b'{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,'
    b'"args":{"correlation":18446744073709551000}}',
    b'{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":7,"ts":20,'
    b'"dur":5,"args":{"stream":7,"correlation":18446744073709551000,"Seq":3,"Comms Id":18446744073709551615}}',
    b'{"ph":"X","cat":"cpu_op","name":"cut\xe2\x82","pid":1,"tid":1,"ts":30,"dur":5}',
    b'{"ph":"X","cat":"python_function","name":"torch/_dynamo/eval_frame.py(1): f\n\tg","pid":1,"tid":1,'
    b'"ts":40,"dur":5}',
    b'{"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":7,"ts":50.7,"dur":-0.001,"args":{"stream":7}}',
    b'{"ph":"X","cat":"kernel","name":"corrupted","pid":0,"tid":7,"ts":60,"dur":864000000000,'
    b'"args":{"stream":7}}',
    b'{"ph":"X","cat":"cpu_op","name":"last","pid":1,"tid":1,"ts":70,"dur":5}',
]


def info(cli, path, *extra):
    p = run_expecting(cli, "info", path, "--json", *extra)
    doc = json.loads(p.stdout)
    rank = doc["ranks"][0]
    return rank, rank["diagnostics"]


def main():
    a = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "quirks.json")
        with open(path, "wb") as f:
            f.write(b'{"traceEvents":[' + b",".join(EVENTS) + b"]}")

        rank, d = info(a.cli, path)
        expected = {"large-integer": 2, "invalid-utf8": 1, "control-character": 1, "negative-duration": 1,
                    "corrupt-duration": 1}
        for name, count in expected.items():
            assert name in d, (name, d)
            assert d[name]["count"] == count, (name, d[name])
            assert d[name]["example"], (name, d[name])
        assert d["invalid-utf8"]["event_index"] == 2, d["invalid-utf8"]
        assert d["control-character"]["event_index"] == 3, d["control-character"]
        assert d["corrupt-duration"]["event_index"] == 5, d["corrupt-duration"]
        assert "Comms Id" in d["large-integer"]["example"] or "correlation" in d["large-integer"]["example"], d
        assert rank["events"] == len(EVENTS), rank["events"]
        for line in sorted(expected):
            print(line, d[line]["count"], d[line]["example"][:100])

        # The limit moves: none at 0, and the 5 µs events go too at 4 µs; after the
        # path or before it, on another command too.
        _, d = info(a.cli, path, "--max-event-duration", "0")
        assert "corrupt-duration" not in d, d
        _, d = info(a.cli, "--max-event-duration=4", path)
        assert d["corrupt-duration"]["count"] == 6, d["corrupt-duration"]
        p = run_expecting(a.cli, "analyze", path, "--only", "launch-stats", "--max-event-duration", "1000")
        assert "launch" in p.stdout.lower(), p.stdout

        code, out, err = run(a.cli, "info", path, "--max-event-duration", "seven days")
        assert code == 2, (code, err)
        assert err.startswith("kinetoscope-cli info: --max-event-duration needs a whole number of µs"), err
        code, _, err = run(a.cli, "ops", path, "--max-event-duration")
        assert code == 2 and "--max-event-duration needs a value" in err, (code, err)
    print("reader quirks: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
