#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gpu-check's guard step: reads the benchmarks it ran (LOGS/guard-control-*.json with subgroup
size control, guard-plain-*.json the way the README creates device and sorter,
guard-indirect-*.json the same with the count read on the GPU) and fails when the plain sort is
more than 2% slower than with subgroup size control, or the GPU-count sort more than 5 us slower
than the plain one.
Usage: gpu-guard.py LOGS"""
import glob
import json
import sys


def medians(logs, name):
    found = {}
    for path in sorted(glob.glob(f"{logs}/guard-{name}-*.json")):
        with open(path) as f:
            found.update({(r["key"], r["value"], r["count"]): r["median_ms"] for r in json.load(f)["results"]})
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    logs = sys.argv[1]
    control, plain, indirect = (medians(logs, n) for n in ("control", "plain", "indirect"))
    if not plain:
        print(f"gpu-guard: no benchmark results in {logs}", file=sys.stderr)
        return 1
    failed = False
    for point, ms in plain.items():
        checks = [("without subgroup size control", ms, control[point] * 1.02, "2%% over %.4f" % control[point]),
                  ("count read on the GPU", indirect[point], ms + 0.005, "5 us over %.4f" % ms)]
        for what, got, limit, said in checks:
            ok = got <= limit
            failed |= not ok
            print("%s %s:%s %d, %s: %.4f ms (limit: %s)" % ("ok  " if ok else "FAIL", *point, what, got, said))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
