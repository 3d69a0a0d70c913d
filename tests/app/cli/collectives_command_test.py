#!/usr/bin/env python3
"""`kinetoscope-cli collectives` and `info` on the real gloo job
(../shared/traces/ddp_gloo_2ranks): gloo CPU collectives are matched (by name
and order, said in a note), --estimated-clocks prints the offsets and shifts the
skew, JSON stays parseable with the notes on stderr, and `info --json` carries
the offsets. A single-rank folder gives a note, not a crash."""
import json
import os
import sys

from cli_test_support import parse_args, run_expecting as run


def main():
    a = parse_args("--shared")
    gloo = os.path.join(a.shared, "traces", "ddp_gloo_2ranks")
    if not os.path.isdir(gloo):
        print("SKIP: ../shared/traces/ddp_gloo_2ranks is absent")
        return 0

    table = run(a.cli, "collectives", gloo).stdout
    assert "gloo:all_reduce" in table and "name+order" in table, table
    assert "matched by name and order" in table, table
    assert "not found on rank 0" in table, table

    p = run(a.cli, "collectives", gloo, "--format", "json")
    rows = json.loads(p.stdout)
    assert "matched by name and order" in p.stderr, p.stderr
    assert "gloo:all_reduce" in json.dumps(rows)

    recorded = run(a.cli, "collectives", gloo, "--format", "csv").stdout.splitlines()
    shifted_p = run(a.cli, "collectives", gloo, "--format", "csv", "--estimated-clocks")
    shifted = shifted_p.stdout.splitlines()
    assert "rank 1: +52.000 us" in shifted_p.stderr, shifted_p.stderr
    header = recorded[0].split(",")
    skew = header.index("skew_us")
    # Rank 1's clock moves 52 µs later: every skew (rank 1 arrives last) grows by 52 µs.
    for before, after in zip(recorded[1:], shifted[1:]):
        assert abs(float(after.split(",")[skew]) - float(before.split(",")[skew]) - 52.0) < 1e-6, (before, after)

    info = json.loads(run(a.cli, "info", gloo, "--json").stdout)
    offsets = {o["rank"]: o for o in info["clock_offsets"]}
    assert offsets[1]["offset_ns"] == 52000 and offsets[1]["spread_ns"] == 3787000, offsets
    assert "estimated clock offsets" in run(a.cli, "info", gloo).stdout

    single = os.path.join(a.shared, "traces", "nccl_ns_resolution")
    out = run(a.cli, "collectives", single).stdout
    assert "only one rank loaded" in out and "member rank(s) 1 not in the folder" in out, out
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
