#!/usr/bin/env python3
"""Serial reference for examples/pipeline.mlir: the M = 6 micro-batches
through the P layers in turn, summed in the same order (stage 0 adds the
micro-batches' outputs in order), printed in the same format.
    python3 examples/pipeline_reference.py P"""

import sys

P = int(sys.argv[1]) if len(sys.argv) > 1 else 2
M, D = 6, 8


def layer(x, s):
    y = []
    for i in range(D):
        a = 0.0
        for j in range(D):
            a += (((3 * i + 5 * j + 7 * s) % 9 - 4) * 0.125) * x[j]
        y.append(a + 1.0)
    return y


total = 0.0
for m in range(M):
    x = [float((D * m + j) % 13 - 6) for j in range(D)]
    for s in range(P):
        x = layer(x, s)
    for j in range(D):
        total += float(D * m + j + 1) * x[j]
print("stages %d" % P)
print("checksum %d" % int(total * 16777216.0))
