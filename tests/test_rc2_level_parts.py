"""Collision, sky and chunks 0..2 read through a whole RC2 level built by
the spec builders (tests/builders/rc2_level.py)."""
import struct

import numpy as np
import pytest

import wadkit
from builders import rc2_collision as C
from builders import rc2_level as R
from builders import tfrag as T

OCTANTS = {(1, 2, 0): ([(0, 0, 0), (16, 0, 0), (0, 16, 0), (16, 16, 64)],
                       [(0, 1, 3, 2, 5), (0, 1, 2, 9)]),
           (2, 2, 0): ([(-64, 0, 0), (-48, 0, 0), (-64, 16, 0)], [(0, 1, 2, 9)])}


def level_with(tfrags=None, sky=b"", collision=None, chunks=None, variant=0x60):
    tfrags = T.block([T.grid_patch(0, 0, texture=1)]) if tfrags is None else tfrags
    collision = C.block(OCTANTS) if collision is None else collision
    core, fields = R.core_parts(tfrags=tfrags, sky=sky, collision=collision,
                                texels=bytes(64))
    data, _ = R.level(core=core, core_fields=fields, chunks=chunks, variant=variant)
    return data


def test_level_collision(write):
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", level_with()))
    c = lvl.collision()
    assert len(c["quads"]) == 1 and c["tag"].tolist() == [9, 5, 5]
    # (-64, 0, 0) from the centre of octant 2 is (10 - 4, 10, 2): the first
    # octant's vertex 0, so one position is shared
    assert len(c["positions"]) == 4
    assert lvl.collision_octants()["coord"].tolist() == [[1, 2, 0], [2, 2, 0]]
    assert len(lvl.collision_block()) >= len(C.block(OCTANTS))
    # unchanged octants lay out to the same bytes (the block is padded in core)
    blk = bytes(lvl.collision_block())
    assert blk.startswith(wadkit.rc2.build_collision_octants(lvl.collision_octants()))


def test_level_collision_error_offsets_are_core_data_offsets(write):
    bad = bytearray(C.block(OCTANTS))
    bad[0x40 + 2:0x40 + 4] = b"\xff\x7f"   # Z count past the block
    data = level_with(collision=bytes(bad))
    lvl = wadkit.rc2.from_bytes(data)
    with pytest.raises(wadkit.FormatError, match="Z node") as e:
        lvl.collision()
    assert e.value.offset == lvl.core_header["collision"] + 0x40
    assert "RC2 collision" in e.value.context


def test_chunks_have_their_own_terrain_and_collision(write):
    t1 = T.block([T.grid_patch(4096, 0, texture=0), T.grid_patch(0, 4096, texture=1)])
    c1 = C.block({(5, 5, 5): ([(0, 0, 0), (16, 0, 0), (0, 16, 0)], [(0, 1, 2, 3)])})
    chunks = {1: R.chunk(tfrags=t1, collision=c1), 2: R.chunk(collision=c1)}
    for variant in (0x60, 0x68):
        lvl = wadkit.rc2.open(write("LEVEL0.WAD", level_with(chunks=chunks, variant=variant)))
        one, two = lvl.level_chunks
        assert (one.index, two.index) == (1, 2)
        assert one.has_terrain and one.has_collision
        assert not two.has_terrain and two.has_collision
        t = one.terrain()
        assert len(one.patches) == 2 and len(t["triangles"]) == 96
        assert t["positions"][:1].tolist() == [[4.0, 0.0, 0.0]]
        assert one.terrain(2)["triangles"].shape == (96, 3)
        c = two.collision()
        assert c["positions"].tolist() == [[22, 22, 22], [23, 22, 22], [22, 23, 22]]
        assert np.array_equal(one.collision()["triangles"], c["triangles"])
        assert two.collision_octants()["coord"].tolist() == [[5, 5, 5]]
        with pytest.raises(KeyError, match="chunk 2 has no tfrags") as e:
            two.terrain()
        assert isinstance(e.value, wadkit.MissingChunkError)
        assert e.value.chunk == "chunk2.tfrags" and e.value.offset is None
        assert len(lvl.terrain()["triangles"]) == 48      # the level's own


def test_no_chunks(write):
    assert wadkit.rc2.open(write("LEVEL0.WAD", level_with())).level_chunks == []


def test_chunk_header_offsets_checked(write):
    blob = bytearray(R.chunk(tfrags=T.block([T.grid_patch(0, 0)])))
    struct.pack_into("<i", blob, 0, 1 << 20)
    lvl = wadkit.rc2.from_bytes(level_with(chunks={0: bytes(blob)}))
    with pytest.raises(wadkit.FormatError, match="outside the chunk extent") as e:
        lvl.level_chunks[0].terrain()
    assert e.value.offset == lvl.extents["chunk0"][0]


def test_built_levels_have_an_empty_sky_and_collision():
    """build_level without a sky or a collision block writes empty ones."""
    from wadkit.samples import _rc2
    rng = np.random.default_rng(5)
    tex, pals = _rc2._textures(rng)
    h = _rc2._height(rng)
    block = wadkit.rc2.build_tfrags([_rc2._patch(h, 0, 0)])
    lvl = wadkit.rc2.from_bytes(wadkit.rc2.build_level(
        block, tex, pals, wadkit.rc2.empty_gameplay()))
    assert lvl.sky()["shells"] == [] and lvl.sky()["textures"] == []
    c = lvl.collision()
    assert c["positions"].shape == (0, 3) and c["triangles"].shape == (0, 3)
    assert len(lvl.terrain()["triangles"]) > 0


def test_info_counts(write, capsys):
    from builders import rc2_sky as S
    from test_rc2_sky import PLAIN, TEXTURED, TEXTURES
    from wadkit import cli
    t1 = T.block([T.grid_patch(0, 0)])
    path = write("LEVEL0.WAD", level_with(sky=S.block([TEXTURED, PLAIN], textures=TEXTURES),
                                          chunks={2: R.chunk(tfrags=t1)}))
    assert cli.main(["info", "--json", path]) == 0
    import json
    counts = json.loads(capsys.readouterr().out)["counts"]
    # the second octant repeats the first one's triangle: 2 faces in 2 octants
    assert (counts["collision_faces"], counts["collision_octants"]) == (2, 2)
    assert (counts["sky_shells"], counts["chunks"]) == (2, 1)
