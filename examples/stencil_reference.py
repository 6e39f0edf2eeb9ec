#!/usr/bin/env python3
"""Serial reference for examples/stencil.mlir: the same Jacobi steps on an
N x N grid on one process, in the same floating-point order, printed in the
same format.
    python3 examples/stencil_reference.py [N] [steps]   (defaults 64 100)"""

import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 64
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 100

u = [[float((7 * i + 3 * j) % 11) for j in range(N)] for i in range(N)]
for _ in range(STEPS):
    v = [row[:] for row in u]
    for i in range(1, N - 1):
        up, mid, dn, out = u[i - 1], u[i], u[i + 1], v[i]
        for j in range(1, N - 1):
            out[j] = (((up[j] + dn[j]) + mid[j - 1]) + mid[j + 1]) * 0.25
    u = v

print("N %d steps %d" % (N, STEPS))
print("checksum %d" % sum(int(x * 1048576.0) for row in u for x in row))
