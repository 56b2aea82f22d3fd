"""Bugs the fuzz harnesses and the hostile suite found, kept as tests.
Each runs in the plain build and under `make sanitize`, where the memory
errors (over-reads, undefined behaviour) are what ASan/UBSan catch."""
import struct

import numpy as np
import pytest

import wadkit
from builders import eng_level as L
from builders import eng_wad as B

TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]


def test_collision_block_at_the_end_of_the_buffer():
    """fuzz_eng_trak: the collision records were copied with one byte more
    than the input held. The TRAK payload in an exactly-sized NumPy buffer
    ends with the last model's records: ASan saw the read past it."""
    trak = L.trak([L.Model(TRI, [(0, 0, 1, 2, 0)], bytes(range(32)), (1, 0, 0))])
    buf = np.frombuffer(trak, dtype=np.uint8).copy()
    g = wadkit._core.EngGeometry(None, buf, 0, None, 0, None, 0)
    (m,) = g.models("file")
    assert bytes(m["collision_raw"]) == bytes(range(32))


def test_tile_at_int32_min_z():
    """fuzz_eng_map: a tile whose fixed-point z is INT32_MIN was negated as
    an int (undefined behaviour) when the world mesh placed it."""
    tile = L.Tile(0.5, 0, -0.5, 0, 0, colors=L.color_block(3, [[(1, 2, 3, 0)] * 3]),
                  b=(0, 0, 0, 0, 0, -2**31))
    data = L.level(trak_payload=L.trak([L.Model(TRI, [(0, 0, 1, 2, 0)])]),
                   map_payload_=L.map_payload(1, 1, [tile]))
    with pytest.warns(wadkit.WadWarning):
        lvl = wadkit.eng.from_bytes(data)
        mesh = lvl.world_mesh(space="file")
    # file space = game space: z = B.z/4096 = -524288, minus each vertex's
    # export-space z (0, 0, 1)
    assert mesh["positions"].tolist() == [[0.0, 0.0, -524288.0], [1.0, 0.0, -524288.0],
                                          [0.0, 0.0, -524289.0]]


def test_empty_frames_are_bounded():
    """Hostile suite: an animation of 2^32-1 frames without deltas or bones
    took 32 bytes and asked the binding for 2^32 frame arrays."""
    anim = struct.pack("<8I", 0, 0, 0xFFFFFFFF, 1, 0, 0, 0, 0)
    lvl = wadkit.eng.from_bytes(L.level(stpc_payload=L.stpc([], [anim])))
    with pytest.raises(wadkit.FormatError, match="without deltas or bones") as e:
        lvl.animations
    assert e.value.offset == lvl.chunks[[c.tag for c in lvl.chunks].index("STPC")].offset + 8 + 8


def test_map_payload_ending_in_a_tag_is_refused_not_misread():
    """fuzz_eng_wad: a MAP payload whose last 4 bytes spell a known tag,
    before an unknown chunk, reads back as the MAP size quirk; the writer
    now refuses with LimitError instead of writing a file that reads back
    differently."""
    data = B.wad([("INFO", B.info_payload()), ("MAP", b"\x11" * 24), ("ZZZZ", b"\x22" * 8)])
    with pytest.warns(wadkit.WadWarning):
        lvl = wadkit.eng.from_bytes(data)
    lvl.replace_chunk("MAP", b"\x22" * 4 + b"OFNL")
    with pytest.raises(wadkit.LimitError, match="would not read back"):
        lvl.to_bytes()
    lvl.replace_chunk("MAP", b"\x22" * 8)          # the same size, no tag at the end
    with pytest.warns(wadkit.WadWarning, match="unknown chunk"):
        again = wadkit.eng.from_bytes(lvl.to_bytes())
    assert bytes(again.chunk("MAP")) == b"\x22" * 8
