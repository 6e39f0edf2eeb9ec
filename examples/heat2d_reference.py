#!/usr/bin/env python3
"""Serial reference for examples/heat2d.mlir: the same Jacobi iteration on
one process, evaluated in the same floating-point order, printed in the same
format (vector.print prints f64 with C's %g)."""

ROWS, COLS, STEPS = 37, 23, 50

u = [[float((7 * i + 3 * j) % 11) for j in range(COLS)] for i in range(ROWS)]
residual = 0.0
for _ in range(STEPS):
    v = [row[:] for row in u]
    residual = 0.0
    for i in range(1, ROWS - 1):
        for j in range(1, COLS - 1):
            new = (((u[i - 1][j] + u[i + 1][j]) + u[i][j - 1]) + u[i][j + 1]) * 0.25
            v[i][j] = new
            residual = max(residual, abs(new - u[i][j]))
    u = v

checksum = sum(int(x * 1048576.0) for row in u for x in row)
print("checksum %d" % checksum)
print("residual %g" % residual)
