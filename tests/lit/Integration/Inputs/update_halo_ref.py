#!/usr/bin/env python3
"""Serial reference of the update-halo-2d/3d integration tests.

It computes, on the whole global array and without any decomposition, what
the distributed programs print: the checksum of a 9-point stencil iterated
on the 2-D array, and how many halo-frame cells of all blocks lie inside
the global array (those the exchange must fill).

  update_halo_ref.py 2d N M W ITERS P
  update_halo_ref.py 3d N0 N1 N2 CASE   (frame lo 1, hi 2)
"""
import sys

MOD = 1000003


def split(n, parts, b):
    """Size and offset of block b of n split in `parts`, the first n % parts
    blocks one larger (the programs' split)."""
    q, r = divmod(n, parts)
    return q + (1 if b < r else 0), b * q + min(b, r)


def frame_cells(shape, blocks, lo, hi):
    """Frame cells inside the array, summed over blocks. `blocks[d]` is the
    number of blocks along d (1: unsplit, no frame inside the array)."""
    total = 0
    ranges = []
    for n, nb in zip(shape, blocks):
        ranges.append([split(n, nb, b) for b in range(nb)])

    def count(d, inside, core):
        nonlocal total
        if d == len(shape):
            total += inside - core
            return
        for size, off in ranges[d]:
            if blocks[d] == 1:
                ext = size
            else:
                ext = min(off + size + hi, shape[d]) - max(off - lo, 0)
            count(d + 1, inside * ext, core * size)

    count(0, 1, 1)
    return total


def grid_2d(p):
    return {1: (1, 1), 2: (2, 1), 3: (1, 3), 4: (2, 2)}[p]


def main():
    if sys.argv[1] == "2d":
        n, m, w, iters, p = map(int, sys.argv[2:7])
        f = lambda i, j: 1000 * i + j
        u = [[f(i, j) for j in range(m)] for i in range(n)]
        for _ in range(iters):
            v = [row[:] for row in u]
            for i in range(1, n - 1):
                for j in range(1, m - 1):
                    s = sum(u[i + a][j + b] for a in (-1, 0, 1) for b in (-1, 0, 1))
                    v[i][j] = s % MOD
            u = v
        checksum = sum(u[i][j] * (i * m + j + 1) for i in range(n) for j in range(m))
        print("frame %d" % frame_cells((n, m), grid_2d(p), w, w))
        print("checksum %d" % checksum)
    else:
        n0, n1, n2, case = map(int, sys.argv[2:6])
        # Blocks per dimension of each case of update-halo-3d.mlir.
        blocks = {1: (1, 1, 1), 2: (1, 1, 2), 3: (1, 3, 1), 4: (1, 4, 1),
                  5: (2, 1, 2)}[case]
        print("frame %d" % frame_cells((n0, n1, n2), blocks, 1, 2))


main()
