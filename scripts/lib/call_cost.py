#!/usr/bin/env python3
"""Reads the callgrind dumps of a DISTRT_BENCH_COST run of distrt_bench.

Usage: call_cost.py [--top N] ROWS DUMP...
ROWS is the run's stdout (rows "case,np,size,cost,k,calls"); each DUMP is
a callgrind file whose trigger is "distrt k" or "baseline k". Prints, per
row, the instructions per call spent in libdistrt (its own code: every
function's self cost in the library's object, MPI's excluded, and the
polls of a shared-memory wait for a peer, pollPeers, too) on the
distrt side, as CSV: case,np,size,runtime_instructions. A rank's dumps
give one figure per row; the largest over the ranks is printed. With
--top N, each row's N costliest functions in libdistrt go to stderr.
"""
import collections
import re
import sys


def self_costs(path, objects):
    """Instructions per object (self costs) and the dump's trigger.
    `objects` maps callgrind's object ids to names: a process's dumps
    define each id once, so read them in order with one map."""
    costs, functions = collections.Counter(), collections.Counter()
    current, skip_next, trigger, fn, names = None, False, None, None, {}
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                trigger = line.split("Client Request: ", 1)[1].strip()
            elif line.startswith(("ob=", "cob=")):
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m.group(2):
                    objects[m.group(1)] = m.group(2)
                if line.startswith("ob="):
                    current = objects.get(m.group(1), m.group(1))
            elif line.startswith(("fn=", "cfn=")):
                m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m.group(2):
                    objects["fn" + m.group(1)] = m.group(2)
                if line.startswith("fn="):
                    fn = objects.get("fn" + m.group(1), m.group(1))
            elif line.startswith("calls="):
                skip_next = True  # the next cost line is the call's
            elif line[:1].isdigit() or line[:1] in "+-*":
                if skip_next:
                    skip_next = False
                    continue
                fields = line.split()
                if len(fields) > 1:
                    costs[current] += int(fields[-1])
                    if "libdistrt" in str(current):
                        functions[fn] += int(fields[-1])
    return trigger, costs, functions


def main():
    args = sys.argv[1:]
    top = 0
    if args[:1] == ["--top"]:
        top, args = int(args[1]), args[2:]
    rows = {}
    for line in open(args[0]):
        fields = line.strip().split(",")
        if len(fields) == 6 and fields[3] == "cost":
            rows[fields[4]] = (fields[0], fields[1], fields[2], int(fields[5]))
    runtime = collections.defaultdict(int)
    objects = collections.defaultdict(dict)  # per process

    def order(path):  # callgrind.<pid>.<part>
        pid, _, part = path.rpartition(".")
        return pid, int(part) if part.isdigit() else 0

    for path in sorted(args[1:], key=order):
        trigger, costs, functions = self_costs(path, objects[order(path)[0]])
        side, _, k = (trigger or "").partition(" ")
        if side != "distrt" or k not in rows:
            continue
        # A wait's polls for a peer (pollPeers, runtime/SpinWait.h) count
        # the peer's time, not the runtime's work.
        ours = sum(n for name, n in functions.items()
                   if "pollPeers" not in str(name))
        runtime[k] = max(runtime[k], ours)
        if top and order(path)[0] == min(order(p)[0] for p in args[1:]):
            case, _, size, calls = rows[k]
            print(f"{case} {size}:", file=sys.stderr)
            for name, n in functions.most_common(top):
                print(f"  {n / calls:8.1f}  {name}", file=sys.stderr)
    print("case,np,size,runtime_instructions")
    for k, (case, np, size, calls) in rows.items():
        if k not in runtime:
            sys.exit(f"call_cost.py: no dump of row {k} ({case} {size})")
        print(f"{case},{np},{size},{runtime[k] / calls:.1f}")


if __name__ == "__main__":
    main()
