#!/usr/bin/env python3
"""Serial reference for examples/summa.mlir: the 16 x 16 product C = A B,
its weighted entry sum and four entries, in the same format."""

N = 16
A = [[(i + 2 * j) % 5 - 2 for j in range(N)] for i in range(N)]
B = [[(3 * i + j) % 7 - 3 for j in range(N)] for i in range(N)]
C = [[sum(A[i][k] * B[k][j] for k in range(N)) for j in range(N)] for i in range(N)]

print("checksum %d" % sum((16 * i + j + 1) * C[i][j] for i in range(N) for j in range(N)))
for i, j in [(0, 0), (5, 11), (9, 2), (15, 15)]:
    print("C(%d, %d) = %d" % (i, j, C[i][j]))
