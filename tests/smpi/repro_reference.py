#!/usr/bin/env python3
"""What tests/smpi/repro.mlir prints at any number of members (4 or more):
the correctly rounded sums (math.fsum) of its 4,096 values and, per element,
of the four small values the large pairs leave once they cancel."""

import math
import struct


def value(i):
    k = i * 7919 % 1000 + 1
    v = math.ldexp(k, i * 31 % 81 - 40)
    return -v if i % 3 == 2 else v


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


print("global_reduce 0x%016x" % bits(math.fsum(value(i) for i in range(4096))))
for j in range(16):
    print("all_reduce %d 0x%016x" % (j, bits(math.fsum(value(4 * j + p)
                                                        for p in range(4)))))
