"""The binding under repetition and threads: 1,000 opens/rebuilds/saves/
failed parses leave no Python objects, references or memory behind (bounded
counts, not timings), and parsing/building from several threads at once
gives what it gives serially, with the GIL released during core work."""
import concurrent.futures
import gc
import hashlib
import os
import sys
import threading
import warnings

import pytest

import wadkit
from builders import eng_wad as B
from sanitizer import SANITIZED



def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def level_bytes(seed: int, text_kib: int = 64) -> bytes:
    text = bytes((seed * 31 + i) & 0xFF for i in range(256)) * (text_kib * 4)
    return B.wad([("INFO", B.info_payload()), ("TEXT", text),
                  ("TRAK", seed.to_bytes(4, "little")), ("MAP", b"\x01" * (seed + 8))],
                 map_quirk=bool(seed & 1))


def one_round(i, data, path, out_dir, bad):
    raw = wadkit._core.EngWad(data)
    lvl = wadkit.eng.open(path)
    assert bytes(lvl.chunk("TRAK")) == (0).to_bytes(4, "little")
    lvl.replace_chunk("TRAK", i.to_bytes(4, "little"))
    out = lvl.to_bytes()
    assert raw.build() == data and len(out) == len(data)
    if i % 10 == 0:
        lvl.save(out_dir / "out.wad")
    with pytest.raises(wadkit.FormatError):
        wadkit.eng.from_bytes(bad)
    with pytest.raises(FileNotFoundError):
        wadkit.eng.open(out_dir / "missing.wad")
    with pytest.raises(KeyError):
        lvl.chunk("NOPE")


def test_thousand_rounds_leave_nothing_behind(tmp_path):
    data = level_bytes(0, text_kib=256)
    path = tmp_path / "in.wad"
    path.write_bytes(data)
    bad = data[:len(data) // 2]
    warnings.simplefilter("ignore", wadkit.WadWarning)
    for i in range(50):                   # warm caches, interned strings, ...
        one_round(i, data, path, tmp_path, bad)
    gc.collect()
    objects, refs_data, refs_type = len(gc.get_objects()), sys.getrefcount(data), \
        sys.getrefcount(wadkit._core.EngWad)
    rss = rss_mb()
    for i in range(1000):
        one_round(i, data, path, tmp_path, bad)
    gc.collect()
    # counted outside the asserts: pytest's assert rewriting holds references
    after = len(gc.get_objects()), sys.getrefcount(data), \
        sys.getrefcount(wadkit._core.EngWad)
    assert after[1:] == (refs_data, refs_type)
    assert after[0] - objects <= 20
    if not SANITIZED:   # ASan's quarantine holds freed memory on purpose
        # one leaked copy of the 256 KiB file per round would be 250+ MiB
        assert rss_mb() - rss < 16, f"RSS grew {rss_mb() - rss:.1f} MiB"
    assert sorted(os.listdir(tmp_path)) == ["in.wad", "out.wad"]


def work(seed_and_data):
    """Everything a converter does with the container, as comparable data."""
    seed, data = seed_and_data
    # (warnings.catch_warnings is not thread-safe: the test filters instead)
    lvl = wadkit.eng.from_bytes(data)
    lvl.replace_chunk("TRAK", bytes(lvl.chunk("TEXT"))[:seed + 1])
    out = lvl.to_bytes()
    again = wadkit.eng.from_bytes(out)
    try:
        wadkit.eng.from_bytes(data[:seed * 7 + 3])
        err = None
    except wadkit.FormatError as e:
        err = (e.offset, e.context)
    return (tuple(lvl.chunks), hashlib.sha256(out).hexdigest(), tuple(again.chunks),
            lvl.warnings, err)


@pytest.mark.filterwarnings("ignore::wadkit.WadWarning")
def test_threads_give_the_serial_results():
    inputs = [(seed, level_bytes(seed, text_kib=16 + seed)) for seed in range(12)]
    serial = [work(x) for x in inputs]
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        for _ in range(5):
            assert list(pool.map(work, inputs)) == serial


def test_core_work_releases_the_gil():
    """A Python thread keeps counting while the main thread is inside a
    long core call; with the GIL held the count could not move at all."""
    lvl = wadkit._core.EngWad(level_bytes(2, text_kib=32 * 1024))   # 32 MiB
    text_index = [c[0] for c in lvl.chunks].index("TEXT")
    payload = {text_index: b"\x33" * (32 << 20)}
    count, stop = [0], threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=counter)
    t.start()
    moved = []
    try:
        for _ in range(20):       # a loaded machine may not run the thread at once
            before = count[0]
            lvl.build(payload)
            moved.append(count[0] - before)
            if moved[-1] > 0:
                break
    finally:
        stop.set()
        t.join()
    assert max(moved) > 0, moved
