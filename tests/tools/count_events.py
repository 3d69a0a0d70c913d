#!/usr/bin/env python3
"""Independent event counts of Kineto / Chrome trace files, with Python's json and gzip.

For each file (or each .json/.json.gz file of a folder) prints one JSON object per
line: {"file", "events", "by_phase", "by_category", "distributed_rank"}.

Counting rules (the reader's contract, product spec L3):
- an event is one element of traceEvents (or of the top-level array);
- its phase is the first character of "ph": X B E C s t f M as themselves, i and I
  both count as "i", anything else (and a missing or non-string ph, and elements
  that are not objects) counts as "other";
- its category is "cat" when that is a string, else "" (absent, or not a string).
"""

import argparse
import gzip
import json
import os
import sys

PHASES = ["X", "B", "E", "i", "C", "s", "t", "f", "M", "other"]
_PHASE_OF = {"X": "X", "B": "B", "E": "E", "i": "i", "I": "i", "C": "C", "s": "s", "t": "t", "f": "f", "M": "M"}


def read_document(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":  # gzip by magic bytes, not by name
        raw = gzip.decompress(raw)
    return json.loads(raw)


def phase_of(event):
    if not isinstance(event, dict):
        return "other"
    ph = event.get("ph")
    if not isinstance(ph, str) or not ph:
        return "other"
    return _PHASE_OF.get(ph[0], "other")


def category_of(event):
    if not isinstance(event, dict):
        return ""
    cat = event.get("cat")
    return cat if isinstance(cat, str) else ""


def count_file(path):
    doc = read_document(path)
    if isinstance(doc, list):
        events, rank = doc, None
    elif isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
        events = doc["traceEvents"]
        info = doc.get("distributedInfo")
        rank = info.get("rank") if isinstance(info, dict) else None
    else:
        return None  # not a Kineto trace
    by_phase = {p: 0 for p in PHASES}
    by_category = {}
    for event in events:
        phase = phase_of(event)
        by_phase[phase] += 1
        per_cat = by_category.setdefault(category_of(event), {})
        per_cat[phase] = per_cat.get(phase, 0) + 1
    return {
        "file": path,
        "events": len(events),
        "by_phase": by_phase,
        "by_category": by_category,
        "distributed_rank": rank,
    }


def trace_files(path):
    if not os.path.isdir(path):
        return [path]
    names = sorted(n for n in os.listdir(path)
                   if not n.startswith(".") and (n.endswith(".json") or n.endswith(".gz"))
                   and not os.path.isdir(os.path.join(path, n)))
    return [os.path.join(path, n) for n in names]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="trace files or folders")
    args = parser.parse_args()
    for path in args.paths:
        for f in trace_files(path):
            counts = count_file(f)
            if counts is not None:
                print(json.dumps(counts, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
