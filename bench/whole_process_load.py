#!/usr/bin/env python3
"""B1/B3/B4 as a user meets them: the whole `kinetoscope-cli info FILE` process.

For every file, RUNS rounds of: `gzip -dc FILE >/dev/null`, then `kinetoscope-cli info FILE --json`,
each under /usr/bin/time. The in-process benchmark (kinetoscope-bench-load) leaves out process
start, the allocator's first touches and exit; this one does not. Each round's load is divided by
the same round's `gzip -dc`, because the machine is shared: a ratio taken within one round is what
stays comparable. Prints a Markdown table: median and worst of the rounds.

Usage: whole_process_load.py CLI FILE... [--runs N] [--label FILE=TEXT]
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

TIME_FORMAT = "%e %M %S %R"  # wall s, peak RSS KiB, system s, minor page faults


def timed(command, stdout):
    """Runs a command under /usr/bin/time; returns (wall s, peak RSS MB of 10^6 bytes, system s, minor faults)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as times:
        subprocess.run(["/usr/bin/time", "-f", TIME_FORMAT, "-o", times.name] + command,
                       stdout=stdout, check=True)
        wall, rss_kib, system, faults = times.read().split()[-4:]
    return float(wall), int(rss_kib) * 1024 / 1e6, float(system), int(faults)


def measure(cli, path, runs):
    rounds = []
    store = None
    for _ in range(runs):
        with open(os.devnull, "wb") as null:
            gzip_wall = timed(["gzip", "-dc", path], null)[0]
        with tempfile.TemporaryFile() as out:
            wall, rss, system, faults = timed([cli, "info", path, "--json"], out)
            out.seek(0)
            rank = json.load(out)["ranks"][0]
        store = rank
        rounds.append({"gzip": gzip_wall, "load": wall, "ratio": wall / gzip_wall, "rss": rss,
                       "system": system, "faults": faults})
    return store, rounds


def median_worst(rounds, key, worst=max):
    values = [r[key] for r in rounds]
    return statistics.median(values), worst(values)


def main(argv):
    runs = 5
    labels = {}
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--runs":
            runs = int(argv[i + 1])
            i += 2
        elif argv[i] == "--label":
            name, text = argv[i + 1].split("=", 1)
            labels[name] = text
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    cli, files = args[0], args[1:]
    print(f"| input | JSON MB | kept events | load s (median / worst of {runs}) | `gzip -dc` s "
          "(median / worst) | load / gzip (median / worst) | peak RSS MB (median / worst) | store MB "
          "| worst peak - store MB | B / kept event | system s (median) | minor faults (median) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in files:
        rank, rounds = measure(cli, path, runs)
        kept = rank["kept_events"]
        store_mb = rank["bytes_in_memory"] / 1e6
        load = median_worst(rounds, "load")
        gz = median_worst(rounds, "gzip")
        ratio = median_worst(rounds, "ratio")
        rss = median_worst(rounds, "rss")
        system = statistics.median(r["system"] for r in rounds)
        faults = statistics.median(r["faults"] for r in rounds)
        label = labels.get(path, os.path.basename(path))
        print(f"| {label} | {rank['json_bytes'] / 1e6:.0f} | {kept / 1e6:.2f} M | {load[0]:.2f} / {load[1]:.2f} "
              f"| {gz[0]:.2f} / {gz[1]:.2f} | {ratio[0]:.2f} / {ratio[1]:.2f} | {rss[0]:.0f} / {rss[1]:.0f} "
              f"| {store_mb:.0f} | {rss[1] - store_mb:.0f} | {rank['bytes_in_memory'] / kept:.1f} "
              f"| {system:.2f} | {faults:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
