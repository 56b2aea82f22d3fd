"""Side-by-side WAD-LZ numbers (not a test): decompression speed against
zlib.decompress of the same data at level 6, and compressed size of
wadkit.lz.compress against greedy encoders.

    PYTHONPATH=. python tools/bench_lz.py [FILE ...]

Without files it uses synthetic level-like records plus a few system files
(no game data exists here)."""
import os
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from wadkit import _core, lz  # noqa: E402
from builders import wadlz  # noqa: E402


def records(n):
    out = bytearray()
    i = 0
    while len(out) < n:
        out += struct.pack("<fffHHI", (i % 500) * 0.5, (i % 17) * 2.0, 1.0,
                           i & 0xFF, (i * 3) & 0x3F, 0x80808080)
        i += 1
    return bytes(out[:n])


def corpus(paths):
    if paths:
        return {os.path.basename(p): open(p, "rb").read() for p in paths}
    c = {"records 2MB": records(2 << 20)}
    for p in ("/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/bin/python3.11"):
        if os.path.exists(p):
            c[os.path.basename(p) + " 2MB"] = open(p, "rb").read()[: 2 << 20]
    py = "/usr/lib/python3.11"
    if os.path.isdir(py):
        c["python sources 2MB"] = b"".join(
            open(os.path.join(py, f), "rb").read()
            for f in sorted(os.listdir(py)) if f.endswith(".py"))[: 2 << 20]
    return c


def best_of(fn, reps=7):
    t = []
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        t.append(time.perf_counter() - s)
    return min(t)


def main():
    print(f"{'input':<22}{'size':>9}{'lz MB/s':>9}{'zlib MB/s':>10}"
          f"{'best':>9}{'lazy':>9}{'greedy':>9}{'64K vs py':>14}{'zlib6':>9}"
          f"{'enc MB/s':>9}")
    for name, data in corpus(sys.argv[1:]).items():
        t0 = time.perf_counter()
        c = lz.compress(data)
        enc = len(data) / (time.perf_counter() - t0) / 1e6
        z = zlib.compress(data, 6)
        assert lz.decompress(c) == data and lz.validate(c) == []
        td = best_of(lambda: lz.decompress(c))
        tz = best_of(lambda: zlib.decompress(z))
        lazy = len(_core.lz_compress(data, level="lazy"))
        greedy = len(_core.lz_compress(data, level="greedy"))
        sample = data[:65536]                   # the Python encoder is slow
        pyg = len(wadlz.greedy_compress(sample))
        ours = len(lz.compress(sample))
        print(f"{name:<22}{len(data):>9}{len(data) / td / 1e6:>9.0f}"
              f"{len(data) / tz / 1e6:>10.0f}{len(c):>9}{lazy:>9}{greedy:>9}"
              f"{f'{ours}/{pyg}':>14}{len(z):>9}{enc:>9.1f}")
    print("py-greedy: ours/python greedy builder on the first 64 KiB")


if __name__ == "__main__":
    main()
