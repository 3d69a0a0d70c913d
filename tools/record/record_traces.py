"""Records small real Kineto traces with torch.profiler on a CUDA machine.

Two ranks (gloo over one GPU) train a small MLP with side streams and events,
so the traces hold kernels on several streams, memcpy/memset, cudaStreamWaitEvent,
cudaEventSynchronize, cudaStreamSynchronize, [memory] allocator events, fwdbwd
flows, ProfilerStep annotations and distributedInfo. Usage:
    python3 record_traces.py OUT_DIR
"""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.profiler import ProfilerActivity, profile, schedule


def train(rank, world_size, out_dir):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    device = torch.device("cuda:0")
    torch.manual_seed(rank)
    model = torch.nn.Sequential(
        torch.nn.Linear(1024, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 10)).to(device)
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=None)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    side = torch.cuda.Stream()
    ready = torch.cuda.Event()

    def step_fn():
        x = torch.randn(256, 1024).pin_memory().to(device, non_blocking=True)
        y = torch.randint(0, 10, (256,)).to(device)
        with torch.cuda.stream(side):
            aux = torch.zeros(4096, 256, device=device)  # memset on a side stream
            aux = aux + 1.0
            ready.record(side)
        torch.cuda.current_stream().wait_event(ready)  # cudaStreamWaitEvent
        loss = torch.nn.functional.cross_entropy(ddp(x), y) + aux.mean() * 0
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ready.synchronize()  # cudaEventSynchronize
        loss.item()  # cudaStreamSynchronize via the copy to host

    for _ in range(3):
        step_fn()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], schedule=schedule(wait=1, warmup=1, active=4),
                 record_shapes=True, profile_memory=True, with_stack=False) as prof:
        for _ in range(6):
            step_fn()
            prof.step()
    prof.export_chrome_trace(os.path.join(out_dir, f"rank-{rank}.pt.trace.json"))
    dist.destroy_process_group()


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    mp.spawn(train, args=(2, out), nprocs=2)
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
