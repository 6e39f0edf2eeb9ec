#!/usr/bin/env python3
"""Serial reference for examples/cg.mlir: conjugate gradients on the N x N
5-point Poisson problem (zero Dirichlet boundary, b(i, j) = 1 + ((7 i + 3 j)
mod 11) / 8, x0 = 0) until sqrt(r.r) < 1e-8 sqrt(b.b) or max_iters
iterations, every elementwise step in the program's floating-point order,
printed in its format.

    cg_reference.py [N] [max_iters]               (defaults 64 500)

By default the dot products are correctly rounded (math.fsum of the
elementwise products): what the program's global_reduce computes at the
reproducibility level exact (DISTRT_REPRODUCIBLE=exact), on any number of
members, bit for bit. At the level mpi it sums each member's products in
row-major order and then the partial sums in MPI's order, so its output is
close to this one, not equal to it (--check).

    cg_reference.py [N] [max_iters] --np P

sums as the program does on P members (@grid_shape's process grid, each
block's products in row-major order, then the partial sums in rank order).
At P = 1 and 2 that is the program's result bit for bit (the order of two
partial sums does not matter); from 3 on MPI may add them in another order.

    cg_reference.py [N] [max_iters] --check OUT... [--rtol R]

compares the programs' outputs OUT with the correctly rounded reference:
the same iterations, a residual within relative R (default 1e-9), and
residual_bits the bits of the printed residual. Exit status 1 on a
mismatch."""

import math
import struct
import sys

# @grid_shape of examples/cg.mlir: team size -> process grid (g0, g1).
GRIDS = {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (5, 1), 6: (3, 2),
         7: (7, 1), 8: (4, 2), 9: (3, 3), 12: (4, 3), 16: (4, 4),
         32: (8, 4), 64: (8, 8)}


def split(n, parts):
    """@split: (offset, size) of each block of n in parts, the first
    n % parts one larger."""
    q, r = divmod(n, parts)
    return [(b * q + min(b, r), q + (1 if b < r else 0)) for b in range(parts)]


def fsum_dot(n):
    """The correctly rounded dot product of two (n + 2)^2 framed grids."""
    def dot(a, b):
        return math.fsum(a[i][j] * b[i][j]
                         for i in range(1, n + 1) for j in range(1, n + 1))
    return dot


def blocked_dot(n, members):
    """The program's dot product on `members` members: per block the
    products summed in row-major order from 0.0, the partials in rank
    order."""
    g0, g1 = GRIDS[members]
    blocks = [(ri, rj) for ri in split(n, g0) for rj in split(n, g1)]

    def dot(a, b):
        total = 0.0
        for (oi, ni), (oj, nj) in blocks:
            part = 0.0
            for i in range(oi + 1, oi + ni + 1):
                for j in range(oj + 1, oj + nj + 1):
                    part = part + a[i][j] * b[i][j]
            total = total + part
        return total
    return dot


def cg(n, max_iters, dot):
    """Returns (iterations, sqrt(r.r)) of CG from x0 = 0."""
    size = n + 2
    x = [[0.0] * size for _ in range(size)]
    r = [[0.0] * size for _ in range(size)]
    for i in range(n):
        for j in range(n):
            r[i + 1][j + 1] = 1.0 + float((7 * i + 3 * j) % 11) * 0.125
    p = [row[:] for row in r]
    ap = [[0.0] * size for _ in range(size)]
    rr = dot(r, r)
    tol = 1.0e-8 * math.sqrt(rr)
    k = 0
    while not math.sqrt(rr) < tol and k < max_iters:
        for i in range(1, n + 1):
            up, mid, dn, out = p[i - 1], p[i], p[i + 1], ap[i]
            for j in range(1, n + 1):
                out[j] = ((((4.0 * mid[j] - up[j]) - dn[j]) - mid[j - 1])
                          - mid[j + 1])
        alpha = rr / dot(p, ap)
        for i in range(1, n + 1):
            xi, ri, pi, ai = x[i], r[i], p[i], ap[i]
            for j in range(1, n + 1):
                xi[j] = xi[j] + alpha * pi[j]
                ri[j] = ri[j] - alpha * ai[j]
        rr_new = dot(r, r)
        beta = rr_new / rr
        for i in range(1, n + 1):
            pi, ri = p[i], r[i]
            for j in range(1, n + 1):
                pi[j] = ri[j] + beta * pi[j]
        rr = rr_new
        k += 1
    return k, math.sqrt(rr)


def bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def lines(iterations, residual):
    return ["iterations %d" % iterations,
            "residual %.17e" % residual,
            "residual_bits 0x%016x" % bits(residual)]


def check(outputs, iterations, residual, rtol):
    ok = True
    for name in outputs:
        with open(name) as f:
            got = dict(line.split(None, 1) for line in f.read().splitlines()
                       if line.strip())
        try:
            k = int(got["iterations"])
            res = float(got["residual"])
            res_bits = int(got["residual_bits"], 16)
        except (KeyError, ValueError) as e:
            print("%s: unreadable output (%s)" % (name, e))
            ok = False
            continue
        rel = abs(res - residual) / residual if residual else abs(res)
        problems = []
        if k != iterations:
            problems.append("iterations %d, expected %d" % (k, iterations))
        if rel > rtol:
            problems.append("residual off by %.3g relative, over %g"
                            % (rel, rtol))
        if res_bits != bits(res):
            problems.append("residual_bits 0x%016x are not the residual's"
                            " 0x%016x" % (res_bits, bits(res)))
        if problems:
            ok = False
            print("%s: %s" % (name, "; ".join(problems)))
        else:
            print("%s: iterations %d, residual off by %.3g relative (%d ulp)"
                  % (name, k, rel, abs(res_bits - bits(residual))))
    return ok


def main(argv):
    args, members, outputs, rtol = [], None, None, 1e-9
    i = 0
    while i < len(argv):
        if argv[i] == "--np":
            members = int(argv[i + 1])
            i += 1
        elif argv[i] == "--rtol":
            rtol = float(argv[i + 1])
            i += 1
        elif argv[i] == "--check":
            outputs = []
        elif outputs is not None:
            outputs.append(argv[i])
        else:
            args.append(int(argv[i]))
        i += 1
    n = args[0] if len(args) > 0 else 64
    max_iters = args[1] if len(args) > 1 else 500
    dot = fsum_dot(n) if members is None else blocked_dot(n, members)
    iterations, residual = cg(n, max_iters, dot)
    if outputs is not None:
        return 0 if check(outputs, iterations, residual, rtol) else 1
    print("\n".join(lines(iterations, residual)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
