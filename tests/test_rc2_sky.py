"""RC2 sky: hand-built shells against hand-derived arrays, both readings of
the ST record, the invariants as FormatErrors, textures, random damage."""
import struct

import numpy as np
import pytest

import wadkit
from wadkit import _core
from builders import rc2_sky as S
from damage import parses_or_format_error

TRI = [(1024, 0, 0, 0x80), (0, 2048, 0, 0x40), (0, 0, -1024, 0x80)]
TEXTURED = (True, [(TRI, [(0, 0), (4096, 0), (2048, -8192)], [(0, 1, 2, 1)])])
PLAIN = (False, [(TRI, [(255, 0, 0, 0x80), (0, 255, 0, 0x40), (0, 0, 128, 0x80)],
                  [(2, 1, 0, 0xFF)])])
PALETTE = bytes(range(256)) * 4
TEXTURES = [(2, 2, bytes([0, 1, 2, 3]), PALETTE), (1, 1, bytes([8]), PALETTE)]


def sky(shells, **kw):
    kw.setdefault("textures", TEXTURES)
    return _core.sky_parse(S.block(shells, **kw))


def test_textured_and_untextured_shells_hand_derived():
    s = sky([TEXTURED, PLAIN], fx=b"\x01\x00", max_sprites=3)
    assert s["colour"] == (10, 20, 30, 0x80) and s["clear_screen"] == 1
    assert s["shell_count"] == 2 and s["fx"] == b"\x01\x00"
    assert s["maximum_sprite_count"] == 3 and s["texture_count"] == 2
    t, u = s["shells"]
    assert t["textured"] and not u["textured"] and u["flags"] == 1
    # s16 / 1024
    assert t["positions"].tolist() == [[1, 0, 0], [0, 2, 0], [0, 0, -1]]
    # the face (0, 1, 2) comes back reversed
    assert t["triangles"].tolist() == [[2, 1, 0]] and t["texture"].tolist() == [1]
    assert u["triangles"].tolist() == [[0, 1, 2]] and u["texture"].tolist() == [-1]
    # textured: ST = s16 / 4096; colour white, alpha = vertex alpha / 128
    assert t["uv"].tolist() == [[0, 0], [1, 0], [0.5, -2]]
    assert t["color"].tolist() == [[1, 1, 1, 1], [1, 1, 1, 0.5], [1, 1, 1, 1]]
    assert t["alpha"].tolist() == [0x80, 0x40, 0x80]
    # untextured: the ST record read as RGBA: RGB / 255, A / 128 times the
    # vertex alpha / 128 (noclip's reading); the raw bytes are kept
    assert u["color"].tolist() == [[1, 0, 0, 1], [0, 1, 0, 0.25],
                                   [0, 0, np.float32(128 / 255), 1]]
    assert u["st"].tolist() == [[255, 0, 0, 0x80], [0, 255, 0, 0x40], [0, 0, 128, 0x80]]
    # Wrench's reading of the same bytes: s16 s, t / 4096
    assert u["uv"][0].tolist() == [255 / 4096, -0x8000 / 4096]   # bytes 00 80
    c = t["clusters"][0]
    assert (c["vertex_count"], c["tri_count"], c["data_size"]) == (3, 1, 48)
    assert t["cluster"].tolist() == [0]


def test_clusters_concatenate_per_shell():
    two = (True, [TEXTURED[1][0], TEXTURED[1][0]])
    t = sky([two])["shells"][0]
    assert t["triangles"].tolist() == [[2, 1, 0], [5, 4, 3]]
    assert t["cluster"].tolist() == [0, 1] and len(t["positions"]) == 6


def test_level_sky_textures(write):
    from test_rc2_level_parts import level_with
    lvl = wadkit.rc2.open(write("LEVEL0.WAD", level_with(sky=S.block([TEXTURED, PLAIN],
                                                                      textures=TEXTURES))))
    s = lvl.sky()
    assert len(s["shells"]) == 2
    tex = s["textures"]
    assert [x.shape for x in tex] == [(2, 2, 4), (1, 1, 4)]
    # palette entry j = bytes 4j..4j+3; index 8 reads entry 16 (bits 3, 4 swapped)
    assert tex[1][0, 0].tolist() == [64, 65, 66, 134]
    assert tex[0][0, 1].tolist() == [4, 5, 6, 14]


# ---- invariants ------------------------------------------------------------------

def fails(data, match):
    with pytest.raises(wadkit.FormatError, match=match) as e:
        _core.sky_parse(data, base=0x500)
    assert 0x500 <= e.value.offset <= 0x500 + len(data), e.value
    return e.value


def test_shell_count_at_most_8():
    blk = bytearray(S.block([TEXTURED], textures=TEXTURES))
    struct.pack_into("<h", blk, 6, 9)
    assert fails(bytes(blk), "9 sky shells").offset == 0x506
    struct.pack_into("<h", blk, 6, -1)
    fails(bytes(blk), "-1 sky shells")


def test_face_indices_in_range():
    bad = (True, [(TRI, [(0, 0)] * 3, [(0, 1, 3, 0)])])
    e = fails(S.block([bad], textures=TEXTURES), "vertex 3, the cluster has 3")
    assert "shell 0 cluster 0" in str(e)


def test_face_textures():
    bad = (True, [(TRI, [(0, 0)] * 3, [(0, 1, 2, 2)])])
    fails(S.block([bad], textures=TEXTURES), "texture 2 in a textured shell")
    # 0xff (no texture) in a textured shell: Wrench reads it as a face
    # without material; allowed
    ok = (True, [(TRI, [(0, 0)] * 3, [(0, 1, 2, 0xFF)])])
    assert _core.sky_parse(S.block([ok], textures=TEXTURES))["shells"][0]["texture"].tolist() == [-1]
    bad = (False, [(TRI, [(0, 0)] * 3, [(0, 1, 2, 0)])])
    fails(S.block([bad], textures=TEXTURES), "texture 0 in an untextured")


def test_offsets_outside_the_block():
    blk = bytearray(S.block([TEXTURED, PLAIN], textures=TEXTURES))
    struct.pack_into("<i", blk, 0x24, len(blk))
    fails(bytes(blk), "shell 1 at")
    blk = bytearray(S.block([TEXTURED], textures=TEXTURES))
    shell = struct.unpack_from("<i", blk, 0x20)[0]
    struct.pack_into("<h", blk, shell + 0x10 + 0x1E, 8)      # data_size
    fails(bytes(blk), "outside the cluster's data")
    blk = bytearray(S.block([TEXTURED], textures=TEXTURES))
    struct.pack_into("<i", blk, 0x10, len(blk))              # texture entries
    fails(bytes(blk), "texture entries")
    blk = bytearray(S.block([TEXTURED], textures=TEXTURES))
    defs = struct.unpack_from("<i", blk, 0x10)[0]
    struct.pack_into("<i", blk, defs + 8, 5000)              # width
    fails(bytes(blk), "sky texture 0")
    fails(S.block([TEXTURED], textures=TEXTURES)[:0x3F], "no 0x40-byte header")


def test_shared_cluster_data_cannot_multiply_work():
    blk = bytearray(S.block([TEXTURED], textures=TEXTURES))
    shell = struct.unpack_from("<i", blk, 0x20)[0]
    head = bytes(blk[shell + 0x10:shell + 0x30])
    n = 2000
    struct.pack_into("<i", blk, shell, n)
    blk = blk[:shell + 0x10] + head * n + blk[shell + 0x30:]
    struct.pack_into("<h", blk, shell + 0x10 + 0x14, 3000)   # first: 3000 vertices
    fails(bytes(blk), "outside|shared")


def test_random_damage_parses_or_raises_format_error():
    good = S.block([TEXTURED, PLAIN, (True, [TEXTURED[1][0]] * 3)], textures=TEXTURES,
                   fx=b"\0\1")

    def check(s):
        for sh in s["shells"]:
            assert len(sh["triangles"]) == 0 or sh["triangles"].max() < len(sh["positions"])
    assert parses_or_format_error(good, _core.sky_parse, check, seed=8) > 0
