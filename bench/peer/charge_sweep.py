"""Peer baseline: the default hammersim charge sweep, vectorised with numpy.

The same question as scenarios/library/swiftstride-charge.yaml: for M 4..10,
with and without Swiftstride, the probability that M plus the charge roll
reaches each distance 1..30. Like hammersim it rolls each (M, Swiftstride)
profile once per trial and reads every distance from the same rolls.

Prints the seconds the sweep took (not counting interpreter start-up).
Usage: python3 charge_sweep.py TRIALS_PER_POINT
"""
import sys
import time

import numpy as np


def charge_roll(rng, n, m, swiftstride):
    """The Swiftstride table's charge column."""
    if swiftstride and m >= 7:
        d = rng.integers(1, 7, size=(n, 3), dtype=np.int8)
        return d.sum(axis=1, dtype=np.int16) - d.min(axis=1)  # 3D6 discard lowest
    if swiftstride and m >= 4:
        return rng.integers(1, 7, size=(n, 2), dtype=np.int8).sum(axis=1, dtype=np.int16)  # 2D6
    return rng.integers(1, 7, size=(n, 2), dtype=np.int8).max(axis=1)  # highest of 2D6


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    table = {}
    for m in range(4, 11):
        for swift in (False, True):
            reach = m + charge_roll(rng, n, m, swift).astype(np.int16)
            counts = np.bincount(reach, minlength=40)
            at_least = counts[::-1].cumsum()[::-1] / n
            for distance in range(1, 31):
                table[(m, swift, distance)] = at_least[distance]
    elapsed = time.perf_counter() - start
    assert len(table) == 7 * 2 * 30
    print(f"{elapsed:.6f}")


if __name__ == "__main__":
    main()
