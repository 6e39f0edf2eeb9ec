#!/usr/bin/env python3
"""Closed forms of Integration/combine-collectives.mlir at np P, sorted as
the test sorts the program's lines: process 0's checksums and one total per
process. A checksum is the sum over elements of (index + 1) * value."""
import sys


def checksum(values):
    return sum((i + 1) * v for i, v in enumerate(values))


def main(P):
    lines = []
    sums = []
    for k in range(8):
        s = [(k + 1) * P * (P + 1) // 2 + P * i for i in range(3 * k + 1)]
        sums.append(s)
        lines.append(("1 %d: %d" % (k, checksum(s)), checksum(s)))
    rr = [P * v for v in sums[0]]
    lines.append(("2 0: %d" % checksum(rr), checksum(rr)))
    for j in range(4):
        m = [(P - 1) * max(j - 1, 0) + i for i in range(5)]
        lines.append(("3 %d: %d" % (j, checksum(m)), checksum(m)))
    a = [10 * q + i for q in range(P) for i in range(2)]
    b = [100 * q + i + 7 for q in range(P) for i in range(3)]
    lines.append(("4 0: %d" % checksum(a), checksum(a)))
    lines.append(("5 0: %d" % checksum(b), checksum(b)))
    total = sum(value for _, value in lines)
    out = [text for text, _ in lines] + ["total %d" % total] * P
    print("\n".join(sorted(out)))


if __name__ == "__main__":
    main(int(sys.argv[1]))
