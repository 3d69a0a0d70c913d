#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus: fuzz/corpus/json/ and fuzz/corpus/gzip/.

Two kinds of seeds: small pieces of the real traces in ../shared/traces (a few
windows of events with the file's top-level keys, each a valid trace), and
hand-made edge cases that real traces never show. Run it again after changing
it: `python3 fuzz/make_seeds.py --traces ../shared/traces`; the output is
deterministic, and it is committed so fuzzing needs no shared folder.
"""

import argparse
import gzip
import json
import os
import struct
import zlib

PIECE_EVENTS = 24
# Events worth a window of their own: GPU work, launches, flows, metadata, steps.
INTERESTING_CATS = ("kernel", "cuda_runtime", "ac2g", "gpu_memcpy", "gpu_memset", "cuda_driver",
                    "gpu_user_annotation", "user_annotation")


def load_trace(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.loads(f.read())


def pieces_of(doc):
    """A few windows of events, each with the document's other top-level keys."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    others = {k: v for k, v in doc.items() if k != "traceEvents"} if isinstance(doc, dict) else {}
    # deviceProperties can be long; the first entry shows its shape.
    if isinstance(others.get("deviceProperties"), list):
        others["deviceProperties"] = others["deviceProperties"][:1]
    windows = [events[:PIECE_EVENTS], events[len(events) // 2:len(events) // 2 + PIECE_EVENTS]]
    for cat in INTERESTING_CATS:
        chosen = [e for e in events if isinstance(e, dict) and e.get("cat") == cat][:PIECE_EVENTS // 2]
        if chosen:
            windows.append(chosen)
    # Metadata events name processes and threads; steps drive the iteration logic.
    windows.append([e for e in events if isinstance(e, dict) and
                    (e.get("ph") == "M" or str(e.get("name", "")).startswith("ProfilerStep"))][:PIECE_EVENTS])
    for window in windows:
        if window:
            yield dict(others, traceEvents=window)


def compact(doc):
    return json.dumps(doc, separators=(",", ":")).encode()


def event(ph, **fields):
    e = {"ph": ph, "name": fields.pop("name", "op"), "pid": fields.pop("pid", 1), "tid": fields.pop("tid", 1)}
    e.update(fields)
    return e


def trace(events, **top):
    return compact(dict(top, traceEvents=events))


def kernel_and_launch(correlation, ts):
    return [
        event("X", cat="cuda_runtime", name="cudaLaunchKernel", ts=ts, dur=5,
              args={"correlation": correlation, "External id": correlation}),
        event("X", cat="kernel", name="gemm", pid=0, tid=7, ts=ts + 10, dur=20,
              args={"correlation": correlation, "stream": 7, "device": 0}),
        event("s", cat="ac2g", name="ac2g", id=correlation, ts=ts),
        event("f", cat="ac2g", name="ac2g", id=correlation, pid=0, tid=7, ts=ts + 10, bp="e"),
    ]


def edge_cases():
    """name -> bytes of a .json file."""
    cases = {}
    step = [event("X", cat="user_annotation", name="ProfilerStep#1", ts=0, dur=100)]
    base = step + kernel_and_launch(1, 5)
    cases["minimal"] = trace(base, distributedInfo={"rank": 0, "world_size": 1})
    cases["bare_array"] = compact(base)
    cases["empty_object"] = b"{}"
    cases["empty_events"] = b'{"traceEvents":[]}'
    cases["events_not_array"] = b'{"traceEvents":{"ph":"X"}}'
    cases["deep_nesting_args"] = (b'{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a":'
                                  + b"[" * 3000 + b"]" * 3000 + b"}}]}")
    cases["deep_nesting_top"] = b'{"x":' + b'{"a":' * 2000 + b"1" + b"}" * 2000 + b',"traceEvents":[]}'
    cases["deep_nesting_unclosed"] = b'{"traceEvents":[' + b"[" * 5000
    big = 9223372036854775807
    cases["huge_numbers"] = trace([
        event("X", ts=big, dur=big),
        event("X", ts=-big - 1, dur=big),
        event("X", ts=1e308, dur=1e308),
        event("X", ts=-1e308, dur=-5),
        event("B", ts=-big - 1), event("E", ts=big),
        event("X", cat="user_annotation", name="ProfilerStep#99999999999999999999", ts=1, dur=2),
        event("X", cat="user_annotation", name="ProfilerStep#-9223372036854775808", ts=3, dur=2),
        event("C", name="counter", ts=5, args={"v": 1e308}),
    ] + kernel_and_launch(big, 9e15))
    cases["huge_number_text"] = (b'{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":'
                                 + b"9" * 400 + b',"dur":1e999}]}')
    cases["tiny_numbers"] = trace([
        event("X", ts=1e-320, dur=5e-324), event("X", ts=0.0000001, dur=0.0000001),
        event("X", ts=-0.0, dur=-0.0), event("X", ts=123.4567891234, dur=0.0005),
    ])
    cases["nan_infinity_tokens"] = (b'{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":NaN,"dur":1},'
                                    b'{"ph":"X","name":"b","pid":1,"tid":1,"ts":Infinity,"dur":-Infinity},'
                                    b'{"ph":"C","name":"c","pid":1,"tid":1,"ts":1,"args":{"v":NaN}}]}')
    cases["invalid_utf8"] = (b'{"traceEvents":[{"ph":"X","name":"\xff\xfe\xc0\x80","cat":"\xed\xa0\x80",'
                             b'"pid":1,"tid":1,"ts":1,"dur":1},{"ph":"M","name":"thread_name","pid":1,"tid":1,'
                             b'"args":{"name":"\\ud800\\udfff\\ud800"}}]}')
    cases["nul_bytes"] = (b'{"traceEvents":[{"ph":"X","name":"a\x00b","pid":1,"tid":1,"ts":1,"dur":1},\x00'
                          b'{"ph":"X","name":"\\u0000","pid":1,"tid":1,"ts":2,"dur":1}]}\x00')
    cases["duplicate_keys"] = (b'{"traceEvents":[{"ph":"X","ph":"B","name":"a","name":"b","pid":1,"pid":2,'
                               b'"tid":1,"ts":1,"ts":2,"dur":3,"dur":-4}],"traceEvents":[{"ph":"E","ts":9}],'
                               b'"distributedInfo":{"rank":1},"distributedInfo":{"rank":2}}')
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    cases["every_ph_letter"] = trace(
        [event(p, cat="cat", ts=i, dur=1, id=i, args={"name": "x", "v": i}) for i, p in enumerate(letters)]
        + [event(p, ts=100) for p in ("(", ")", "", "XX", "?")])
    cases["begin_without_end"] = trace([event("B", ts=1), event("B", ts=2, name="inner"), event("E", ts=3),
                                        event("E", ts=0, tid=2), event("E", ts=5), event("E", ts=6)])
    cases["flows_without_ids"] = trace([
        event("X", ts=1, dur=10), event("s", cat="ac2g", ts=1), event("f", cat="ac2g", ts=5, bp="e"),
        event("t", cat="fwdbwd", ts=3), event("s", cat="fwdbwd", ts=1, id={"local": 1}),
        event("f", cat="fwdbwd", ts=2, id="abc", bind_id="x"), event("s", ts=2, id=None),
        event("f", ts=3, id=1.5), event("f", ts=4, id=-1),
    ])
    cases["object_pid_tid"] = trace([
        event("X", pid={"a": 1}, tid=[1], ts=1, dur=1), event("X", pid="name", tid="thread", ts=1, dur=1),
        event("X", pid=True, tid=None, ts=1, dur=1), event("X", pid=1.5, tid=-7, ts=1, dur=1),
        event("M", name="thread_name", pid={"x": 1}, tid={"y": 2}, args={"name": "t"}),
        event("M", name="process_name", pid=[], args={"name": 5}),
    ])
    cases["wrong_types"] = trace([
        event("X", name=5, cat=["k"], ts="1", dur="2", args=[1]), event("X", name=None, ts=True, dur=False),
        {"ph": 1}, [], 5, "x", None,
    ], distributedInfo={"rank": "one"}, deviceProperties=[{"id": "x"}, 5])
    cases["distributed_info_extremes"] = trace(base, distributedInfo={"rank": 1e300, "world_size": -1,
                                                                        "pg_config": [{"ranks": [1e20]}]})
    cases["many_tracks"] = trace([event("X", tid=t, ts=t, dur=1) for t in range(2500)])
    cases["many_thread_names"] = trace([event("M", name="thread_name", tid=1, args={"name": "t%d" % i})
                                        for i in range(2000)])
    cases["many_process_names"] = trace([event("M", name="process_name", pid=i, args={"name": "p%d" % i})
                                         for i in range(2000)])
    cases["memory_and_counters"] = trace([
        event("i", name="[memory]", s="t", ts=1, args={"Bytes": 1e300, "Total Allocated": -5, "Device Id": 99999}),
        event("i", name="[memory]", s="t", ts=2, args={"Bytes": "x"}),
        event("C", name="Queue Length", ts=3, args={"Queue Length": -1e30}),
        event("C", name="Memory Bandwidth (GB/s)", ts=4, args={"Memory Bandwidth (GB/s)": 1e308}),
    ] + base)
    cases["truncated"] = cases["minimal"][: len(cases["minimal"]) // 2]
    cases["trailing_garbage"] = cases["minimal"] + b"}}]]garbage"
    cases["whitespace_and_bom"] = b"\xef\xbb\xbf \n\t" + cases["minimal"] + b"\n\n"
    cases["strings_with_escapes"] = trace([event("X", name='a"b\\c\n\t\u2028\U0001F600', ts=1, dur=1)])
    # What real producers write (tests/core/io/tst_reader_quirks.cpp): uint64 and bigger ids,
    # NCCL kernels' Seq and Comms Id, names cut inside a UTF-8 character, raw control
    # characters in torch._dynamo's strings, negative sub-µs and corrupted durations.
    u64 = 18446744073709551000
    nccl = event("X", cat="kernel", name="ncclDevKernel_AllReduce_Sum_f32_RING_LL", pid=0, tid=7, ts=40, dur=5,
                 args={"correlation": u64, "stream": 7, "device": 0, "Seq": 41, "Comms Id": 2 ** 64 - 1,
                       "Collective name": "allreduce", "Group size": 2, "Process Group Name": "0"})
    cases["uint64_ids"] = trace(kernel_and_launch(u64, 10) + [nccl] + [
        event("X", cat="kernel", name="k", pid=2 ** 63, tid=2 ** 64 + 5, ts=60, dur=1,
              args={"stream": 7, "correlation": 10 ** 30, "External id": -2 ** 63 - 1}),
        event("s", cat="fwdbwd", ts=70, id=2 ** 64), event("f", cat="fwdbwd", ts=71, id=2 ** 64, bp="e"),
    ])
    cases["nccl_seq_comms_id"] = trace(kernel_and_launch(7, 10)[:1] + [
        dict(nccl, args=dict(nccl["args"], correlation=7, Seq="41", **{"Comms Id": "0xffffffffffffffff"})),
        dict(nccl, ts=50, args={"Seq": -1, "Comms Id": 1.5e19, "stream": 7}),
    ])
    cases["invalid_utf8_names"] = (b'{"traceEvents":[{"ph":"X","name":"before","pid":1,"tid":1,"ts":1,"dur":1},'
                                   b'{"ph":"X","name":"cut\xe2\x82","cat":"caf\xc3\xa9\xff","pid":1,"tid":1,"ts":2,'
                                   b'"dur":1,"args":{"Input Dims":"\xf0\x9f\x98","\xfe":1}},'
                                   b'{"ph":"X","name":"after","pid":1,"tid":1,"ts":3,"dur":1}]}')
    cases["control_characters"] = (b'{"traceEvents":[{"ph":"X","cat":"python_function","name":"torch/_dynamo/'
                                   b'eval_frame.py(12): f\n\tg\r","pid":1,"tid":1,"ts":1,"dur":4,"args":{"note":'
                                   b'"a\x01\x1fb\\\n"}},{"ph":"X","name":"ok","pid":1,"tid":1,"ts":2,"dur":1}]}')
    cases["negative_durations"] = trace([
        event("X", cat="kernel", name="tiny", pid=0, tid=7, ts=100.7, dur=-0.001, args={"stream": 7}),
        event("X", cat="kernel", name="rounded", pid=0, tid=7, ts=101, dur=-1, args={"stream": 7}),
        event("B", ts=5), event("E", ts=4.999), event("X", ts=200, dur=1),
    ])
    cases["corrupt_durations"] = trace([
        event("X", cat="kernel", name="years", pid=0, tid=7, ts=1000, dur=7.4e15, args={"stream": 7}),
        event("X", cat="kernel", name="days", pid=0, tid=7, ts=1010, dur=864000000000, args={"stream": 7}),
        event("B", ts=1000), event("E", ts=691200001000), event("X", ts=1020, dur=5),
    ] + kernel_and_launch(3, 2000))
    return cases


def gzip_member(data, name=None):
    return gzip.compress(data, compresslevel=6, mtime=0) if name is None else _gzip_with_name(data, name)


def _gzip_with_name(data, name):
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = compressor.compress(data) + compressor.flush()
    header = b"\x1f\x8b\x08\x08" + b"\x00\x00\x00\x00" + b"\x00\x03" + name + b"\x00"
    return header + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def gzip_cases(json_cases):
    doc = json_cases["minimal"]
    one = gzip_member(doc)
    cases = {
        "minimal": one,
        "with_file_name": gzip_member(doc, b"rank0.json"),
        "concatenated_members": gzip_member(doc[:20]) + gzip_member(doc[20:60]) + gzip_member(doc[60:]),
        "empty_member_between": gzip_member(doc[:30]) + gzip_member(b"") + gzip_member(doc[30:]),
        "bad_crc": one[:-8] + struct.pack("<I", zlib.crc32(doc) ^ 0xFFFF) + one[-4:],
        "bad_length": one[:-4] + struct.pack("<I", len(doc) + 1),
        "truncated": one[: len(one) // 2],
        "header_only": one[:10],
        "trailing_zeros": one + b"\x00" * 64,
        "trailing_garbage": one + b"not gzip",
        "not_gzip": doc,
        "stored_block": gzip.compress(doc, compresslevel=0, mtime=0),
        "huge_numbers": gzip_member(json_cases["huge_numbers"]),
        "many_tracks": gzip_member(json_cases["many_tracks"]),
    }
    return cases


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", default=os.path.join(here, "..", "..", "shared", "traces"))
    parser.add_argument("--out", default=os.path.join(here, "corpus"))
    args = parser.parse_args()
    json_dir = os.path.join(args.out, "json")
    gzip_dir = os.path.join(args.out, "gzip")
    cases = edge_cases()
    for name, data in cases.items():
        write(json_dir, "edge_%s.json" % name, data)
    for name, data in gzip_cases(cases).items():
        write(gzip_dir, "edge_%s.json.gz" % name, data)
    for folder in sorted(os.listdir(args.traces)):
        path = os.path.join(args.traces, folder)
        if not os.path.isdir(path):
            continue
        for file in sorted(os.listdir(path)):
            if not (file.endswith(".json") or file.endswith(".json.gz")):
                continue
            stem = "%s_%s" % (folder, file.split(".")[0])
            for i, piece in enumerate(pieces_of(load_trace(os.path.join(path, file)))):
                data = compact(piece)
                write(json_dir, "%s_%d.json" % (stem, i), data)
                if i == 0:
                    write(gzip_dir, "%s_%d.json.gz" % (stem, i), gzip.compress(data, mtime=0))


if __name__ == "__main__":
    main()
