"""Records the problem/fix pairs of tests/data/gains/ with Debian's CPU PyTorch 1.13.

    /usr/bin/python3 tests/data/gains/record_pairs.py OUT_DIR [PAIR ...]

PAIR is one of: dataloader, straggler, two_stragglers, skew, overlap, cpu_idle (dataloader, straggler,
two_stragglers, skew and cpu_idle when none is given). Each pair writes OUT_DIR/<pair>/problem/ and OUT_DIR/<pair>/fixed/ with one
gzipped trace per rank (rank-N.json.gz, PyTorch 1.13's Chrome-trace format: no Kineto
in Debian's build). The fixed run is the problem run with only the fix its finding
suggests. Every process talks over 127.0.0.1 only and stops by itself.

The problem and the fixed run of a pair run at the same time, so that both see the
same load on a shared machine; overlap's run one after the other, each rank on a core
of its own (its fix needs the core free while the backward waits): record it on a quiet
machine, or under `nice -n -15`. Where a pair's problem is waiting (a slow dataset, a
rank busy elsewhere) it is time.sleep, which holds on a loaded machine; compute is a
small MLP.
"""

import gzip
import os
import shutil
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.profiler as tprof
from torch.nn.parallel import DistributedDataParallel as DDP

STEPS = 8
WARMUP = 3


def save(prof, out, rank):
    os.makedirs(out, exist_ok=True)
    raw = os.path.join(out, f"rank-{rank}.json")
    prof.export_chrome_trace(raw)
    with open(raw, "rb") as src, gzip.open(raw + ".gz", "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    os.remove(raw)


def profile_steps(step, out, rank):
    """WARMUP steps unprofiled, then STEPS profiled as ProfilerStep#10..., saved for `rank`."""
    for _ in range(WARMUP):
        step()
    with tprof.profile(activities=[tprof.ProfilerActivity.CPU]) as prof:
        for s in range(STEPS):
            with torch.autograd.profiler.record_function(f"ProfilerStep#{s + 10}"):
                step()
    save(prof, out, rank)


# ---- dataloader: num_workers=0 with a slow dataset vs num_workers=2 ------------


class SlowDataset(torch.utils.data.Dataset):
    """Each sample costs 4 ms of waiting (a decode or a network read)."""

    def __len__(self):
        return 10_000

    def __getitem__(self, i):
        time.sleep(0.004)
        return torch.randn(256), i % 10


def dataloader(out, workers):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    lossf = nn.CrossEntropyLoss()
    loader = torch.utils.data.DataLoader(SlowDataset(), batch_size=16, num_workers=workers)
    it = iter(loader)

    def step():
        x, y = next(it)
        opt.zero_grad()
        lossf(model(x), y).backward()
        opt.step()
        # The rest of the step, longer than the loading so that two workers can hide it:
        # a fixed 80 ms stand-in for accelerator time. CPU compute alone varies 3x
        # between two runs on a shared 2-core machine; a wait does not.
        with torch.autograd.profiler.record_function("accelerator_step"):
            time.sleep(0.080)

    profile_steps(step, out, 0)


# ---- cpu_idle: unprofiled host work each step vs none -------------------------


def cpu_idle(out, unprofiled):
    """A training step whose host, after the optimizer, spends 25 ms the profiler does not
    record (no op runs: Python metrics and a wait on I/O, as logging or a checkpoint
    write would), against the same step without it."""
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    lossf = nn.CrossEntropyLoss()
    x = torch.randn(32, 256)
    y = torch.randint(0, 10, (32,))
    history = []

    def step():
        opt.zero_grad()
        loss = lossf(model(x), y)
        loss.backward()
        opt.step()
        # The rest of the step: a fixed 40 ms stand-in for accelerator time (recorded).
        with torch.autograd.profiler.record_function("accelerator_step"):
            time.sleep(0.040)
        if unprofiled:
            # Pure-Python bookkeeping and a blocking write: nothing the profiler records.
            history.append({f"metric_{i}": i * 0.5 for i in range(2000)})
            time.sleep(0.025)

    profile_steps(step, out, 0)


# ---- straggler / overlap: 2-rank DDP over gloo ---------------------------------


class AcceleratorTime(torch.autograd.Function):
    """A layer's kernels as a fixed wait: 10 ms forward, 40 ms backward."""

    @staticmethod
    def forward(ctx, x):
        time.sleep(0.010)
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        time.sleep(0.040)
        return grad


class Accelerator(nn.Module):
    def forward(self, x):
        return AcceleratorTime.apply(x)


def ddp_rank(rank, world, out, port, mode):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    if mode.startswith("overlap"):
        os.sched_setaffinity(0, {rank % os.cpu_count()})
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    if mode.startswith(("straggler", "two_stragglers", "skew")):
        # Little compute: the two ranks share the machine's cores, and the straggler's
        # sleep would otherwise free a core for the other rank's compute.
        model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
        ddp = DDP(model)
        batch = 16
    else:
        # Large layers: an all-reduce of ~64 MB a step. Problem: one bucket, reduced
        # after the whole backward; fixed: 1 MB buckets (one layer each) reduced during
        # the backward.
        # Each layer's compute is a fixed stand-in for accelerator time (Accelerator:
        # a wait in its forward and backward), so that the backward leaves the core to
        # gloo's thread as a GPU would; the batch of one keeps the real layers' CPU work
        # small beside it.
        layers = []
        for i in range(4):
            layers += [nn.Linear(2048, 2048), Accelerator(), nn.ReLU()]
        model = nn.Sequential(*layers, nn.Linear(2048, 10))
        ddp = DDP(model, bucket_cap_mb=1000 if mode == "overlap_problem" else 1)
        batch = 1
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    width = 256 if mode.startswith(("straggler", "two_stragglers", "skew")) else 2048
    x = torch.randn(batch, width)
    y = torch.randint(0, 10, (batch,))
    lossf = nn.CrossEntropyLoss()

    def step():
        if mode == "straggler_problem" and rank == 1:
            time.sleep(0.100)  # rank 1 does 100 ms of other work each step (logging, a slow host)
        # Four ranks, two slow ones: fixing the slowest gives back only its lead over the
        # second (20 ms a step), not its lead over the median rank (100 ms).
        # skew: the same two slow ranks, fixed on both (every rank arrives with the first).
        if mode in ("two_stragglers_problem", "skew_problem") and rank == 1:
            time.sleep(0.100)
        if (mode.startswith("two_stragglers") or mode == "skew_problem") and rank == 2:
            time.sleep(0.080)
        opt.zero_grad()
        lossf(ddp(x), y).backward()
        opt.step()

    for _ in range(WARMUP):
        step()
    dist.barrier()
    with tprof.profile(activities=[tprof.ProfilerActivity.CPU]) as prof:
        for s in range(STEPS):
            with torch.autograd.profiler.record_function(f"ProfilerStep#{s + 10}"):
                step()
    save(prof, out, rank)
    dist.destroy_process_group()


def ddp(out, mode, port, world=2):
    mp.spawn(ddp_rank, args=(world, out, port, mode), nprocs=world)


def both(problem, fixed):
    """Runs the problem and the fixed recording at once (same machine load)."""
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=problem[0], args=problem[1:]), ctx.Process(target=fixed[0], args=fixed[1:])]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        if p.exitcode != 0:
            sys.exit(f"record_pairs.py: a recording failed (exit {p.exitcode})")


def main():
    out = sys.argv[1]
    pairs = sys.argv[2:] or ["dataloader", "straggler", "two_stragglers", "skew", "cpu_idle"]
    for pair in pairs:
        problem = os.path.join(out, pair, "problem")
        fixed = os.path.join(out, pair, "fixed")
        if pair == "dataloader":
            both((dataloader, problem, 0), (dataloader, fixed, 2))
        elif pair == "straggler":
            both((ddp, problem, "straggler_problem", 29611), (ddp, fixed, "straggler_fixed", 29612))
        elif pair == "two_stragglers":
            both((ddp, problem, "two_stragglers_problem", 29615, 4), (ddp, fixed, "two_stragglers_fixed", 29616, 4))
        elif pair == "skew":
            both((ddp, problem, "skew_problem", 29617, 4), (ddp, fixed, "skew_fixed", 29618, 4))
        elif pair == "cpu_idle":
            both((cpu_idle, problem, True), (cpu_idle, fixed, False))
        elif pair == "overlap":
            # One after the other, each rank on a core of its own (as each would have its GPU):
            # the fix needs the core free for gloo's thread while the backward waits, and a
            # rank whose all-reduce waits for its peer keeps a core busy, so two runs at once,
            # or two ranks on one core, slow each other down and the problem run the more.
            ddp(problem, "overlap_problem", 29613)
            ddp(fixed, "overlap_fixed", 29614)
        else:
            sys.exit(f"record_pairs.py: unknown pair '{pair}' (dataloader, straggler, two_stragglers, skew, overlap, cpu_idle)")


if __name__ == "__main__":
    main()
