#!/usr/bin/env python3
"""`kinetoscope-cli check` against `analyze` on a real shared trace: the limit it
checks is the value analyze reports, its exit code says whether a rank crossed
it (1), the arguments were wrong (2) or nothing could be measured (3)."""
import csv
import io
import os
import sys

from cli_test_support import parse_args, run


def temporal_by_rank(cli, folder):
    code, out, err = run(cli, "analyze", folder, "--only", "temporal", "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out.split("\n", 1)[1])))
    return {int(r["rank"]): float(r["idle_time_pctg"]) for r in rows if r.get("rank")}


def main():
    a = parse_args("--shared")
    folder = os.path.join(a.shared, "traces", "two_ranks_sampled")
    if not os.path.isdir(folder):
        print("SKIP: no shared traces at", folder)
        return 0
    idle = temporal_by_rank(a.cli, folder)
    assert len(idle) == 2, idle
    low, high = min(idle.values()), max(idle.values())
    assert low < high

    # Above every rank: all within limits.
    code, out, err = run(a.cli, "check", folder, "--max", f"idle_pct={high + 1}")
    assert code == 0, (code, out, err)
    assert out.count(" ok\n") == 2, out

    # Between the two ranks: only the idler rank fails, named in the output.
    code, out, err = run(a.cli, "check", folder, "--max", f"idle_pct={(low + high) / 2}")
    assert code == 1, (code, out, err)
    worst = max(idle, key=idle.get)
    failed = [line for line in out.splitlines() if line.endswith("FAILED")]
    assert failed == [line for line in out.splitlines() if line.startswith(f"rank {worst}:")], out
    assert f"{idle[worst]:.2f}" in failed[0], (failed, idle)

    # A minimum works the other way round.
    code, out, err = run(a.cli, "check", folder, "--min", f"idle_pct={low - 1}")
    assert code == 0, (code, out, err)

    # Wrong arguments: exit 2 with the usage.
    for bad in (["--max", "idle=5"], ["--max", "idle_pct=abc"], []):
        code, out, err = run(a.cli, "check", folder, *bad)
        assert code == 2 and "usage:" in err, (bad, code, err)

    # A CPU-only trace has no overlap to measure: exit 3, said in a line.
    code, out, err = run(a.cli, "check", os.path.join(a.shared, "traces", "cpu_only"), "--max", "overlap_pct=5")
    assert code == 3 and "not measurable" in out, (code, out, err)
    print("check command: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
