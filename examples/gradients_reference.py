#!/usr/bin/env python3
"""Closed form for examples/gradients.mlir: the average over the members of
layer l's gradient is i * (l + 1) at element i, so each layer's sum is
(l + 1) * n * (n - 1) / 2, printed for both recipes."""

SIZES = [64, 3, 100, 257, 1, 1000]


def main():
    for recipe in ("sync", "overlap"):
        for layer, n in enumerate(SIZES):
            print(f"{recipe} {(layer + 1) * n * (n - 1) // 2}")


if __name__ == "__main__":
    main()
