#!/usr/bin/env python3
"""Serial reference for examples/converge.mlir: the same Jacobi iteration of
a 41-point rod (ends held at 0 and 64) until the largest change is at most
1e-3 (or 5000 steps), evaluated in the same floating-point order and printed
in the same format (vector.print prints f64 with C's %g)."""


def relax(points, hot, tol, max_steps):
    u = [0.0] * points
    u[-1] = hot
    steps, residual = 0, float("inf")
    while residual > tol and steps < max_steps:
        v = u[:]
        residual = 0.0
        for i in range(1, points - 1):
            new = (u[i - 1] + u[i + 1]) * 0.5
            v[i] = new
            residual = max(residual, abs(new - u[i]))
        u = v
        steps += 1
    return u, steps, residual


if __name__ == "__main__":
    rod, steps, residual = relax(41, 64.0, 1.0e-3, 5000)
    print("steps %d" % steps)
    print("residual %g" % residual)
    print("checksum %d" % sum(int(x * 1048576.0) for x in rod))
