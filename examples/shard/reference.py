#!/usr/bin/env python3
"""Serial reference for the shard examples: the same inputs from the same
closed forms, computed on one process and printed as the examples print
(vector.print: f64 with C's %g)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import heat2d_reference as heat2d  # noqa: E402


def matmul(rows, k, cols):
    a = [[(i + 2 * x) % 5 - 2 for x in range(k)] for i in range(rows)]
    b = [[(3 * x + j) % 7 - 3 for j in range(cols)] for x in range(k)]
    c = [[i - j + sum(a[i][x] * b[x][j] for x in range(k)) for j in range(cols)]
         for i in range(rows)]
    for row in c:
        print("".join("%g " % v for v in row))
    checksum = sum((i * cols + j + 1) * c[i][j]
                   for i in range(rows) for j in range(cols))
    print("checksum %g" % checksum)


def elementwise(n):
    y = [float((i - 7) ** 2) for i in range(n)]
    print("y " + "".join("%g " % v for v in y))
    checksum = sum((i + 1) * v for i, v in enumerate(y))
    print("sum %g max %g checksum %g" % (sum(y), max(y), checksum))


def jacobi(rows, cols, steps):
    """examples/shard/jacobi.mlir: heat2d's iteration, on its own grid."""
    grid, residual = heat2d.jacobi(rows, cols, steps)
    print("checksum %d" % heat2d.checksum(grid))
    print("residual %g" % residual)


if __name__ == "__main__":
    example = sys.argv[1] if len(sys.argv) > 1 else "matmul"
    # examples/shard/matmul.mlir prints the product twice (two partitionings)
    # and then that of a taller A (its third partitioning).
    {"matmul": lambda: [matmul(6, 12, 6), matmul(6, 12, 6),
                        matmul(12, 12, 6)],
     "elementwise": lambda: elementwise(16),
     "jacobi": lambda: jacobi(37, 23, 50)}[example]()
