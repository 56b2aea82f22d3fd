"""Random byte damage for the parsers' robustness tests: a damaged block
either parses (and then the caller's checks hold) or raises a FormatError
whose offset lies inside it; never a crash."""
import numpy as np

import wadkit


def parses_or_format_error(good: bytes, parse, check, count: int = 500,
                           seed: int = 0) -> int:
    """Flip 1..3 random bytes of good, count times; returns how many
    damaged copies parsed (the caller asserts it is not 0)."""
    rng = np.random.default_rng(seed)
    ok = 0
    for _ in range(count):
        blk = bytearray(good)
        for _ in range(int(rng.integers(1, 4))):
            blk[int(rng.integers(0, len(blk)))] = int(rng.integers(0, 256))
        try:
            result = parse(bytes(blk))
        except wadkit.FormatError as e:
            assert e.offset is not None and 0 <= e.offset < len(blk), e
            continue
        ok += 1
        check(result)
    return ok
