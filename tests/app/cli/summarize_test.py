#!/usr/bin/env python3
"""kinetoscope-cli summarize as scripts and clusters use it.

Cases (one ctest each):
  rss     peak RSS of `summarize --jobs 1` on 16 and on 64 synthetic ranks: it
          must not grow with the rank count (each rank is freed once written).
  killed  a summarize killed mid-run leaves no file at --out, and whatever
          partial file it left is refused by summary-info.
  shards  --shard and Slurm's array variables pick disjoint subsets whose
          merge equals one pass row for row; bad .kssum files are refused.
  mpi     mpirun -np 2 kinetoscope-cli-mpi equals kinetoscope-cli's single-process
          summary row for row; kinetoscope-cli itself links no MPI and refuses to
          run as several MPI processes (skipped with a message when mpirun or
          the MPI build is missing).
"""
import argparse
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time


def run(cli, *args, env=None, check=True):
    proc = subprocess.run([cli, *args], capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()}")
    return proc


def synth(cli, out, ranks, size_mb, **extra):
    args = ["synth", "--ranks", str(ranks), "--size-mb", str(size_mb), "--seed", "5", "--out", out]
    for key, value in extra.items():
        args += [f"--{key}", str(value)]
    run(cli, *args)
    return out


def peak_rss_kb(cmd):
    """Peak resident set of one child process (getrusage through wait4)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {status}: {proc.stderr.read().decode().strip()}")
    return usage.ru_maxrss


def table_rows(path):
    """Every table but meta, rows sorted (row order follows thread timing)."""
    db = sqlite3.connect(path)
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'meta'")]
    rows = {name: sorted(db.execute(f"SELECT * FROM {name}").fetchall(), key=repr) for name in names}
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    db.close()
    return rows, meta


def same_summary(a, b, what):
    rows_a, meta_a = table_rows(a)
    rows_b, meta_b = table_rows(b)
    if rows_a.keys() != rows_b.keys():
        sys.exit(f"FAIL: {what}: tables differ: {sorted(rows_a)} vs {sorted(rows_b)}")
    for name in rows_a:
        if rows_a[name] != rows_b[name]:
            sys.exit(f"FAIL: {what}: table {name} differs ({len(rows_a[name])} vs {len(rows_b[name])} rows)")
    for key in ("job_id", "mode", "bins", "bin_width_ns", "bin_origin_ns", "files_total", "schema_version"):
        if meta_a.get(key) != meta_b.get(key):
            sys.exit(f"FAIL: {what}: meta {key}: {meta_a.get(key)} vs {meta_b.get(key)}")
    total = sum(len(r) for r in rows_a.values())
    if rows_a["ranks"] == [] or total == 0:
        sys.exit(f"FAIL: {what}: empty summary")
    print(f"{what}: {total} rows equal in {len(rows_a)} tables")


def case_rss(cli, tmp):
    job = synth(cli, os.path.join(tmp, "job64"), 64, 1.5)
    small = os.path.join(tmp, "job16")
    os.mkdir(small)
    for r in range(16):
        name = f"rank-{r}.pt.trace.json"
        os.link(os.path.join(job, name), os.path.join(small, name))
    rss = {}
    for count, folder in ((16, small), (64, job)):
        out = os.path.join(tmp, f"s{count}.kssum")
        rss[count] = peak_rss_kb([cli, "summarize", folder, "--out", out, "--jobs", "1"])
        rows, _ = table_rows(out)
        if len(rows["ranks"]) != count:
            sys.exit(f"FAIL: {count} ranks expected in {out}, got {len(rows['ranks'])}")
    print(f"peak RSS with --jobs 1: 16 ranks {rss[16] / 1024:.1f} MB, 64 ranks {rss[64] / 1024:.1f} MB")
    # Keeping the ranks (about 1.5 MB of JSON each) would add tens of MB for
    # the 48 extra ranks; allow 25 % + 16 MB of noise.
    if rss[64] > rss[16] * 1.25 + 16 * 1024:
        sys.exit("FAIL: peak RSS grows with the number of ranks")


def case_killed(cli, tmp):
    job = synth(cli, os.path.join(tmp, "job"), 48, 1.5)
    out = os.path.join(tmp, "killed.kssum")
    delay = 0.6
    while True:
        proc = subprocess.Popen([cli, "summarize", job, "--out", out, "--jobs", "1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        # It may have finished between the sleep and the signal: only a run the
        # signal ended counts as killed.
        finished = proc.wait() != -signal.SIGKILL
        if not finished:
            break
        if os.path.exists(out):
            os.remove(out)
        delay /= 2
        if delay < 0.01:
            sys.exit("FAIL: summarize finished before it could be killed")
    if os.path.exists(out):
        sys.exit(f"FAIL: a killed summarize left {out}")
    partial = [f for f in os.listdir(tmp) if f.startswith("killed.kssum.partial-") and not f.endswith(".scratch")]
    print(f"killed after {delay:.3f} s; partial files left: {partial}")
    for name in partial:
        proc = run(cli, "summary-info", os.path.join(tmp, name), check=False)
        if proc.returncode == 0 or len(proc.stderr.strip().splitlines()) != 1:
            sys.exit(f"FAIL: the partial file {name} was not refused with one line: {proc.stderr!r}")
        print(f"refused: {proc.stderr.strip()}")


def case_shards(cli, tmp):
    job = synth(cli, os.path.join(tmp, "job"), 6, 0.5, stragglers=2, slowdown=2)
    whole = os.path.join(tmp, "whole.kssum")
    run(cli, "summarize", job, "--out", whole)
    part0 = os.path.join(tmp, "part0.kssum")
    part1 = os.path.join(tmp, "part1.kssum")
    run(cli, "summarize", job, "--out", part0, "--shard", "0/2")
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="2", SLURM_ARRAY_TASK_COUNT="2", SLURM_ARRAY_TASK_MIN="1")
    run(cli, "summarize", job, "--out", part1, env=env)
    for part, shard in ((part0, "0"), (part1, "1")):
        rows, meta = table_rows(part)
        if meta["shards"] != shard or meta["shard_count"] != "2" or len(rows["ranks"]) != 3:
            sys.exit(f"FAIL: {part}: shard {meta['shards']}/{meta['shard_count']} with {len(rows['ranks'])} files")
    merged = os.path.join(tmp, "merged.kssum")
    proc = run(cli, "merge-summaries", part1, part0, "--out", merged)
    print(proc.stdout.strip())
    same_summary(whole, merged, "shards merged vs one pass")

    # A part written before the findings gained `subject` (within schema version 1)
    # merges with a newer one: columns are copied by name, the missing one left empty.
    older = os.path.join(tmp, "part0-older.kssum")
    shutil.copy(part0, older)
    db = sqlite3.connect(older)
    old_findings = db.execute("SELECT COUNT(*) FROM findings").fetchone()[0]
    db.execute("ALTER TABLE findings DROP COLUMN subject")
    db.commit()
    db.close()
    mixed = os.path.join(tmp, "mixed.kssum")
    run(cli, "merge-summaries", part1, older, "--out", mixed)
    rows_whole, _ = table_rows(whole)
    rows_mixed, _ = table_rows(mixed)
    if len(rows_mixed["findings"]) != len(rows_whole["findings"]) or old_findings == 0:
        sys.exit(f"FAIL: old and new parts merged to {len(rows_mixed['findings'])} findings, "
                 f"not {len(rows_whole['findings'])} ({old_findings} in the older part)")
    for name in rows_whole:
        if name != "findings" and rows_whole[name] != rows_mixed[name]:
            sys.exit(f"FAIL: old and new parts merged: table {name} differs")
    print(f"an older part merged: {len(rows_mixed['findings'])} findings")

    # Refusals: one line naming the file, non-zero exit.
    text = os.path.join(tmp, "notes.kssum")
    with open(text, "w") as f:
        f.write("not a database\n")
    truncated = os.path.join(tmp, "truncated.kssum")
    with open(whole, "rb") as f:
        data = f.read()
    with open(truncated, "wb") as f:
        f.write(data[: len(data) // 3])
    other = synth(cli, os.path.join(tmp, "other"), 2, 0.5)
    other_part = os.path.join(tmp, "other.kssum")
    run(cli, "summarize", other, "--out", other_part, "--shard", "1/2")
    for args, expected in (
        (["summary-info", text], "not an SQLite database"),
        (["summary-info", truncated], "damaged or truncated"),
        (["merge-summaries", part0, other_part, "--out", os.path.join(tmp, "x.kssum")], "different job"),
        (["merge-summaries", part0, part0, "--out", os.path.join(tmp, "x.kssum")], "given twice"),
    ):
        proc = run(cli, *args, check=False)
        lines = proc.stderr.strip().splitlines()
        if proc.returncode == 0 or len(lines) != 1 or expected not in lines[0] or args[1] not in lines[0]:
            sys.exit(f"FAIL: {args}: expected one line with '{expected}', got {proc.returncode} {proc.stderr!r}")
        print(f"refused: {lines[0]}")
    if os.path.exists(os.path.join(tmp, "x.kssum")):
        sys.exit("FAIL: a refused merge wrote its output")


def linked_libraries(executable):
    """The shared libraries `executable` loads, as ldd lists them."""
    proc = subprocess.run(["ldd", executable], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in proc.stdout.splitlines() if line.strip()]


def case_mpi(cli, tmp, mpi_cli):
    mpi_libraries = [lib for lib in linked_libraries(cli) if "libmpi" in lib or "open-" in lib]
    if mpi_libraries:
        sys.exit(f"FAIL: kinetoscope-cli links MPI: {mpi_libraries}")
    if not mpi_cli:
        print("SKIP: kinetoscope-cli-mpi was not built (-DKS_WITH_MPI=OFF or no libopenmpi-dev)")
        return
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("SKIP: mpirun not found (Debian: openmpi-bin)")
        return
    job = synth(cli, os.path.join(tmp, "job"), 16, 0.5, stragglers=3, slowdown=1.5)
    single = os.path.join(tmp, "single.kssum")
    run(cli, "summarize", job, "--out", single)
    launch = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2"]

    # The plain CLI under mpirun would run the whole job twice into one file: refused.
    refused = os.path.join(tmp, "refused.kssum")
    proc = subprocess.run(launch + [cli, "summarize", job, "--out", refused], capture_output=True, text=True,
                          timeout=300)
    if proc.returncode == 0 or "kinetoscope-cli-mpi" not in proc.stderr or os.path.exists(refused):
        sys.exit(f"FAIL: kinetoscope-cli summarize under mpirun was not refused: {proc.returncode} {proc.stderr!r}")
    print(f"refused: {proc.stderr.strip().splitlines()[0]}")

    out = os.path.join(tmp, "mpi.kssum")
    cmd = launch + [mpi_cli, "summarize", job, "--out", out, "--jobs", "1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {proc.returncode}: {proc.stdout}{proc.stderr}")
    print(proc.stdout.strip())
    _, meta = table_rows(out)
    if meta["shard_count"] != "2" or meta["shards"] != "0,1":
        sys.exit(f"FAIL: the MPI summary holds shards {meta['shards']} of {meta['shard_count']}, not both of 2")
    same_summary(single, out, "mpirun -np 2 kinetoscope-cli-mpi vs one process")

    # Started alone, the MPI build summarises every file itself.
    alone = os.path.join(tmp, "alone.kssum")
    run(mpi_cli, "summarize", job, "--out", alone)
    same_summary(single, alone, "kinetoscope-cli-mpi alone vs kinetoscope-cli")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--case", required=True, choices=["rss", "killed", "shards", "mpi"])
    parser.add_argument("--mpi-cli", default="", help="kinetoscope-cli-mpi, when it was built")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.case == "rss":
            case_rss(args.cli, tmp)
        elif args.case == "killed":
            case_killed(args.cli, tmp)
        elif args.case == "shards":
            case_shards(args.cli, tmp)
        else:
            case_mpi(args.cli, tmp, args.mpi_cli)
    print("PASS")


if __name__ == "__main__":
    main()
