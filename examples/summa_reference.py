#!/usr/bin/env python3
"""Serial reference for examples/summa.mlir: the 420 x 420 product C = A B,
its sum of (i + 1)(j + 2) C(i, j) and four entries, in the same format, for
the grid dims_create picks for np processes (the balanced factorization
into two, larger first).
    python3 examples/summa_reference.py np"""

import sys

np_ = int(sys.argv[1]) if len(sys.argv) > 1 else 4
N = 420


def dims2(n):
    """The most balanced pr x pc = n with pr >= pc."""
    pc = max(d for d in range(1, int(n ** 0.5) + 1) if n % d == 0)
    return n // pc, pc


def a(i, j):
    return (i + 2 * j) % 13 - 5


def b(i, j):
    return (3 * i + j) % 11 - 4


pr, pc = dims2(np_)
print("grid %d x %d" % (pr, pc))
# The weights factor, so the weighted sum is sum_k U_k V_k (O(N^2)).
U = [sum((i + 1) * a(i, k) for i in range(N)) for k in range(N)]
V = [sum((j + 2) * b(k, j) for j in range(N)) for k in range(N)]
print("checksum %d" % sum(U[k] * V[k] for k in range(N)))
for i, j in [(0, 0), (101, 377), (263, 54), (419, 419)]:
    print("C(%d, %d) = %d" % (i, j, sum(a(i, k) * b(k, j) for k in range(N))))
