#!/usr/bin/env python3
"""Serial reference for examples/heat2d.mlir: the same Jacobi iteration on
one process, evaluated in the same floating-point order, printed in the same
format (vector.print prints f64 with C's %g). stencil_reference.py and
shard/reference.py use its jacobi() for their examples, which compute the
same iteration."""


def jacobi(rows, cols, steps):
    """u(i, j) = (7 i + 3 j) mod 11, then `steps` 5-point updates of the
    interior (the edges keep their values); returns the grid and the last
    step's largest change."""
    u = [[float((7 * i + 3 * j) % 11) for j in range(cols)] for i in range(rows)]
    residual = 0.0
    for _ in range(steps):
        v = [row[:] for row in u]
        residual = 0.0
        for i in range(1, rows - 1):
            up, mid, dn, out = u[i - 1], u[i], u[i + 1], v[i]
            for j in range(1, cols - 1):
                new = (((up[j] + dn[j]) + mid[j - 1]) + mid[j + 1]) * 0.25
                out[j] = new
                residual = max(residual, abs(new - mid[j]))
        u = v
    return u, residual


def checksum(u):
    """The examples' exact checksum: the sum of int(x * 2^20)."""
    return sum(int(x * 1048576.0) for row in u for x in row)


if __name__ == "__main__":
    grid, residual = jacobi(37, 23, 50)
    print("checksum %d" % checksum(grid))
    print("residual %g" % residual)
