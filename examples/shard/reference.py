#!/usr/bin/env python3
"""Serial reference for the shard examples: the same inputs from the same
closed forms, computed on one process and printed as the examples print
(vector.print: f64 with C's %g)."""
import sys


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
    """examples/shard/jacobi.mlir on one process: the 5-point update of the
    interior, summed in the example's order; the edges keep their values."""
    u = [[float((7 * i + 3 * j) % 11) for j in range(cols)] for i in range(rows)]
    residual = 0.0
    for _ in range(steps):
        v = [row[:] for row in u]
        residual = 0.0
        for i in range(1, rows - 1):
            for j in range(1, cols - 1):
                new = (((u[i - 1][j] + u[i + 1][j]) + u[i][j - 1])
                       + u[i][j + 1]) * 0.25
                v[i][j] = new
                residual = max(residual, abs(new - u[i][j]))
        u = v
    print("checksum %d" % sum(int(x * 1048576.0) for row in u for x in row))
    print("residual %g" % residual)


if __name__ == "__main__":
    example = sys.argv[1] if len(sys.argv) > 1 else "matmul"
    # examples/shard/matmul.mlir prints the product twice (two partitionings).
    {"matmul": lambda: [matmul(6, 12, 6) for _ in range(2)],
     "elementwise": lambda: elementwise(16),
     "jacobi": lambda: jacobi(37, 23, 50)}[example]()
