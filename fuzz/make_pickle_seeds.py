#!/usr/bin/env python3
"""Writes the snapshot fuzzer's seeds: fuzz/corpus/pickle/.

Small memory snapshots of every shape the reader handles (the dict of
_dump_snapshot with and without device_traces, the bare segment list, 2.0
history blocks, expandable segments, several devices, OOM entries, shared
frame lists) pickled with protocols 2 to 5, and hostile or broken pickles
written byte by byte (they are never unpickled here). The real snapshots of
../shared/snapshots are added to the corpus by `dev.sh fuzz`, not copied.
Run again after changing it: `python3 fuzz/make_pickle_seeds.py`; the output is
deterministic and committed.
"""

import os
import pickle

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "pickle")


def frames(*names):
    return [{"filename": f"/work/model.py", "line": 10 + i, "name": n} for i, n in enumerate(names)]


def block(size, requested, state, fr=None):
    return {"address": 0, "size": size, "requested_size": requested, "state": state, "frames": fr or []}


def segment(device, address, blocks, stream=0, expandable=False):
    addr = address
    for b in blocks:
        b["address"] = addr
        addr += b["size"]
    total = sum(b["size"] for b in blocks)
    active = [b for b in blocks if b["state"] != "inactive"]
    return {"device": device, "address": address, "total_size": total,
            "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
            "active_size": sum(b["size"] for b in active), "requested_size": sum(b["requested_size"] for b in active),
            "stream": stream, "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": expandable,
            "frames": [], "blocks": blocks}


def event(action, addr, size, fr=None, stream=0, t=None):
    e = {"action": action, "addr": addr, "size": size, "stream": stream, "frames": fr or []}
    if t is not None:
        e["time_us"] = t
    return e


def snapshots():
    shared = frames("forward", "step")  # one list object: pickled once, then memo references
    seg = segment(0, 1 << 20, [block(512, 500, "active_allocated", shared), block(512, 0, "inactive")])
    trace = [event("segment_alloc", 1 << 20, 1024, t=1), event("alloc", 1 << 20, 500, shared, t=2),
             event("alloc", (1 << 20) + 512, 300, shared, t=3), event("free_requested", (1 << 20) + 512, 300, t=4),
             event("free_completed", (1 << 20) + 512, 300, t=5), event("snapshot", 0, 0, t=6)]
    yield "dict_with_trace", {"segments": [seg], "device_traces": [trace],
                              "allocator_settings": {"expandable_segments": False, "roundup_power2_divisions": {"1": 0}},
                              "external_annotations": [{"stage": "START", "name": "step", "device": 0, "time_us": 1}]}
    yield "no_time_us", {"segments": [seg], "device_traces": [[event("alloc", 1 << 20, 500), event("free_completed", 99, 8)]]}
    yield "no_device_traces", {"segments": [seg]}
    yield "bare_segment_list", [seg]
    hist = {"size": 512, "requested_size": 0, "state": "active_allocated",
            "history": [{"addr": 4096, "real_size": 300, "frames": shared}]}
    yield "history_blocks", [{"device": 0, "address": 4096, "total_size": 512, "stream": 0, "blocks": [hist]}]
    exp = segment(0, 1 << 21, [block(2 << 20, 2 << 20, "active_allocated"), block(2 << 20, 0, "inactive")], expandable=True)
    yield "expandable", {"segments": [exp], "device_traces": [[
        event("segment_map", 1 << 21, 4 << 20), event("segment_map", (1 << 21) + (4 << 20), 2 << 20),
        event("alloc", 1 << 21, 2 << 20), event("segment_unmap", (1 << 21) + (4 << 20), 2 << 20)]]}
    oom = {"action": "oom", "size": 1 << 30, "device_free": 1 << 20, "stream": 7, "frames": shared, "time_us": 9}
    yield "devices_streams_oom", {"segments": [seg, segment(1, 1 << 22, [block(4096, 4096, "active_pending_free")], stream=7)],
                                  "device_traces": [trace, [event("alloc", 1 << 22, 4096, stream=7), oom]]}


def hostile():
    yield "global_os_system", b"\x80\x02cos\nsystem\n(S'true'\ntR."
    yield "stack_global", b"\x80\x04\x8c\x02os\x8c\x06system\x93\x8c\x04true\x85R."
    yield "build", b"\x80\x04}}b."
    yield "deep_lists", b"\x80\x04" + b"]" * 300 + b"a" * 299 + b"."
    yield "self_list", b"\x80\x04]\x94h\x00a."
    yield "modified_after_use", b"\x80\x04]\x94]h\x00ah\x00\x8c\x01xa."
    yield "huge_string_length", b"\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f."
    yield "far_memo_index", b"\x80\x04K\x07r\x00\x28\x6b\xeej\x00\x28\x6b\xee0."
    yield "protocol_6", b"\x80\x06K\x05."
    yield "wide_long", b"\x80\x04\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\x00."
    yield "not_a_snapshot", pickle.dumps({"weights": [1.5, 2.5]}, protocol=4)
    one = segment(0, 1 << 20, [block(512, 500, "active_allocated")])
    yield "shared_segments", pickle.dumps({"segments": [one] * 64}, protocol=4)
    # 2,000 references to one segment whose blocks are 2,000 references to one block: 4 M blocks from 30 KB.
    blk = block(512, 500, "active_allocated")
    wide = dict(segment(0, 1 << 20, [block(512, 500, "active_allocated")]), blocks=[blk] * 2000)
    yield "shared_blowup", pickle.dumps({"segments": [wide] * 2000}, protocol=4)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, value in snapshots():
        for protocol in (2, 4, 5):
            with open(os.path.join(OUT, f"{name}_p{protocol}.pickle"), "wb") as f:
                f.write(pickle.dumps(value, protocol=protocol))
        data = pickle.dumps(value, protocol=4)
        with open(os.path.join(OUT, f"{name}_truncated.pickle"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])
    for name, data in hostile():
        with open(os.path.join(OUT, f"hostile_{name}.pickle"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
