"""Records an RPC job in which every worker profiles its own calls, one trace
per worker in one folder: the case of a folder holding several RPC workers.

Three workers on 127.0.0.1; worker k calls rpc_async(torch.add) and
rpc_sync(torch.mul) on worker (k + 1) % 3 under the legacy profiler (Debian's
PyTorch 1.13 has no Kineto) and writes worker<k>.json beside the table
PyTorch prints for it, worker<k>.key_averages.txt.

    /usr/bin/python3 tools/record/rpc_workers.py OUT_DIR
"""
import os
import sys

import torch
import torch.distributed.rpc as rpc
import torch.multiprocessing as mp
from torch.autograd import profiler_legacy as profiler

WORLD = 3


def worker(rank, out):
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "29547"
    rpc.init_rpc(name=f"worker{rank}", rank=rank, world_size=WORLD)
    dst = f"worker{(rank + 1) % WORLD}"
    t1, t2 = torch.rand((3, 3)), torch.rand((3, 3))
    with profiler.profile() as prof:
        fut = rpc.rpc_async(dst, torch.add, args=(t1, t2))
        rpc.rpc_sync(dst, torch.mul, args=(t1, t2))
        fut.wait()
    table = prof.key_averages().table(row_limit=-1, max_name_column_width=120)
    with open(os.path.join(out, f"worker{rank}.key_averages.txt"), "w") as f:
        f.write(table)
    prof.export_chrome_trace(os.path.join(out, f"worker{rank}.json"))
    rpc.shutdown()


if __name__ == "__main__":
    target = sys.argv[1]
    os.makedirs(target, exist_ok=True)
    mp.spawn(worker, args=(target,), nprocs=WORLD)
