"""The embedded sample levels (wadkit.samples): built by wadkit's own
writers, deterministic from a seed, re-parsed by the readers, with the
statistics docs/samples.md promises; plus the two writers they need
(wadkit.eng.new_level, wadkit.rc2.build_level) checked against numbers
derived by hand from the formats."""
from __future__ import annotations

import struct
import subprocess
import sys

import numpy as np
import pytest

import wadkit
from wadkit import eng, lz, rc2
from wadkit import samples
from wadkit.samples import _eng as eng_sample, _rc2 as rc2_sample


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Both samples written once for the module (their speed is not a test:
    docs/samples.md gives what a run measured)."""
    out = tmp_path_factory.mktemp("samples")
    return samples.write_samples(out, seed=0)


# ---- both ----

def test_build_is_deterministic(built, tmp_path):
    paths = built
    again = samples.write_samples(tmp_path, seed=0)
    for kind in ("eng", "rc2"):
        assert open(again[kind], "rb").read() == open(paths[kind], "rb").read()


def test_seed_changes_both(built):
    paths = built
    assert eng_sample.build(1).to_bytes() != open(paths["eng"], "rb").read()
    assert rc2_sample.build(1) != open(paths["rc2"], "rb").read()


def test_module_entry_point(tmp_path):
    r = subprocess.run([sys.executable, "-m", "wadkit.samples", str(tmp_path / "o"),
                        "--seed", "3"], capture_output=True, text=True, check=True)
    assert "eng:" in r.stdout and "rc2:" in r.stdout
    for name, kind in ((samples.ENG_NAME, "eng"), (samples.RC2_NAME, "rc2")):
        head = (tmp_path / "o" / name).read_bytes()[:64]
        assert wadkit.detect(head) == kind
    assert (tmp_path / "o" / samples.RC2_NAME).stat().st_size % 2048 == 0


# ---- ENG ----

@pytest.fixture(scope="module")
def eng_level(built):
    return eng.open(built["eng"])


def test_eng_statistics(eng_level):
    lvl = eng_level
    assert lvl.warnings == [] and lvl.geometry_warnings == []
    assert [c.tag for c in lvl.chunks] == ["INFO", "WFPC", "TEXT", "TRAK", "STPC",
                                           "MAP", "END"]
    tris = sum(len(m.triangles) for m in lvl.models)
    assert 20000 <= tris <= 30000
    assert 300 <= len(lvl.tiles) <= 2000          # hundreds of tiles
    assert len(lvl.models) == len(lvl.tiles)
    kinds = [p.kind for p in lvl.pages]
    assert kinds.count("pal8") == 2 and kinds.count("rgb16") == 1 \
        and kinds.count("rle16") == 2
    assert all((p.width, p.height) == (256, 256) for p in lvl.pages)
    assert len(lvl.palettes) == 1 and len(lvl.palettes[0].rgba) == 256
    # every page shows more than a few colours
    assert all(len(np.unique(p.rgba.reshape(-1, 4), axis=0)) > 8 for p in lvl.pages)
    # crate (6 quads), gem (12 triangles), signpost (2 boxes without bottoms)
    assert [len(o.triangles) for o in lvl.objects] == [12, 12, 20]
    assert lvl.tiles.width == lvl.tiles.height == eng_sample.GRID


def test_eng_lighting_and_zones(eng_level):
    mesh = eng_level.world_mesh()
    light = mesh["color"][..., 0]
    # sky 0.42 + sun 0.58·(n·sun); ×0.65 under water; bytes are 1/128 steps
    assert light.min() >= 0.42 * 0.65 - 1 / 128 and light.max() <= 1.0
    assert light.std() > 0.05
    z = eng_level.zones
    assert sorted(np.unique(z.grid)) == [0, 1, 2, 3]
    assert list(z.mask[:4]) == [0xF] * 4 and not z.mask[4:].any()
    # quadrants: zone = 2·(row ≥ 14) + (column ≥ 14)
    assert z.grid[0, 0] == 0 and z.grid[0, 20] == 1 and z.grid[20, 0] == 2 \
        and z.grid[20, 20] == 3
    # faces use the pages of all three kinds
    used = set(np.unique(mesh["page"]))
    assert {0, 1, 2, 3, 4} <= used


def test_eng_water_plane_is_model_0(eng_level):
    m0 = eng_level.models[0]
    assert len(m0.triangles) == 0 and sum(m0.collision_groups) == 1
    assert list(m0.collision["material"]) == [0x1E]
    t = eng_level.tiles
    assert np.allclose(t.position[0], (0.5, -2.75, 0.5))
    water = [i for i in range(len(t)) if len(eng_level.models[t.model[i]].triangles) == 0]
    assert len(water) > 250                 # the sea around the island (272)


def test_eng_floor_hits_land_not_water(eng_level):
    mesh = eng_level.world_mesh()
    pos, tri = mesh["positions"], mesh["triangles"]
    terrain = mesh["texture"] < 48          # the terrain pages' 48 entries
    cent = pos[tri].mean(axis=1)
    land = np.nonzero(terrain & (pos[tri][..., 1].min(axis=1) > -2.6))[0]
    rng = np.random.default_rng(1)
    hits = 0
    for t in rng.choice(land, 150, replace=False):
        x, y, z = cent[t]
        r = eng_level.floor(x, y + 0.2, z)
        assert r is not None, (x, y, z)
        hits += abs(r["height"] - y) < 0.02
    assert hits >= 145                      # a ramp or crate may lie on top
    # the open sea and the river bed: the water plane wins -> no floor
    for x, z in ((0.5, 0.5), (27.5, 0.5), (0.5, 27.5), (27.5, 27.5)):
        assert eng_level.floor(x, 0.0, z) is None
        assert eng_level.floor(x, 0.0, z, candidates=True)["source"] == "water"
    river = np.nonzero(terrain & (pos[tri][..., 1].max(axis=1) < -3.0)
                       & (np.hypot(cent[:, 0] - 14, cent[:, 2] - 14) < 8))[0]
    assert len(river) > 20
    for t in river[:20]:
        x, y, z = cent[t]
        assert eng_level.floor(x, -2.0, z) is None


def test_eng_uvs_fit_and_no_drops():
    report = eng_sample.build(0).import_report
    assert report["uv_inexact"] == 0 and report["uv_nearest_entry"] == 0
    assert report["dropped_degenerate"] == 0 and report["collision_split"] == 0
    assert report["warnings"] == []


# ---- wadkit.eng.new_level, by hand ----

def _tiny(**kw):
    pal = np.zeros((3, 4), np.uint8)
    pal[:, 3] = 255
    pal[1] = (255, 0, 0, 255)
    pages = [("pal8", np.array([[0, 1], [2, 1]], np.uint8)),
             ("rgb16", np.full((2, 3, 4), 255, np.uint8)),
             ("rle16", np.zeros((4, 4, 4), np.uint8))]
    # entry 1: page 1, u 0..1, v 0..2 -> rect U 0..2/256, V 0..3/256; the
    # corners in file order get (U1,V1) (U1,V0) (U0,V1): stored order (0,2,1)
    # makes that (U1,V1) (U0,V1) (U1,V0), the plain triangle rule (flags 0)
    tri = {"positions": [[0, 0, 0], [1, 0, 0], [0, 1, 1]], "triangles": [[0, 1, 2]],
           "texture": [1], "uv": [[[2 / 256, 3 / 256], [2 / 256, 0], [0, 3 / 256]]]}
    args = dict(width=3, height=2, pages=pages, palettes=[pal],
                textures=[struct.pack("<HbbBBBB", 0, 0, -1, 0, 255, 0, 255),
                          struct.pack("<HbbBBBB", 0, 1, -1, 0, 1, 0, 2)],
                objects=[tri])
    args.update(kw)
    return eng.new_level(**args)


def test_new_level_layout_by_hand():
    lvl = _tiny()
    raw = lvl.to_bytes()
    assert struct.unpack_from("<I", raw)[0] == len(raw)
    sizes = {c.tag: c.size for c in lvl.chunks}
    # TEXT: nPal + {index, n, 3×u16, 3×u8}; nPages + pal8 {12 + 4} + rgb16
    # {12 + 6×2} + rle16 {12 + u32 len + words: one repeat of 16 = 2 words};
    # nTex + 2×8; nEffects
    assert sizes["TEXT"] == 4 + (8 + 6 + 3) + 4 + (12 + 4) + (12 + 12) + (12 + 4 + 4) \
        + 4 + 16 + 4
    assert sizes["TRAK"] == 4
    # STPC: count, 0x8c header, 3 vertices × 24, 1 face × 28, animation count
    assert sizes["STPC"] == 4 + 0x8C + 72 + 28 + 4
    # MAP: N W H, 3 empty lists, zone table, 3×2 zone grid, n2 n3 u16
    assert sizes["MAP"] == 12 + 12 + 256 + 24 + 10
    assert sizes["INFO"] == 4 and sizes["WFPC"] == 4
    text = bytes(lvl.chunk("TEXT"))
    # palette: count 1, index 0, 3 colours; opaque black becomes 0x8000 (0
    # would be transparent; bit 15 alone is black and opaque), red 0x001F;
    # then 3 extra bytes, then 3 pages
    assert struct.unpack_from("<III3H3BI", text, 0) == (1, 0, 3, 0x8000, 0x001F,
                                                         0x8000, 0, 0, 0, 3)
    # pal8 page: flags 0, 2×2, the indices as given
    assert struct.unpack_from("<III4B", text, 25) == (0, 2, 2, 0, 1, 2, 1)
    # rle16 page (after pal8 16 bytes, rgb16 24): flags 0x80, 4×4, byte
    # length 4, one repeat word -16 of transparent 0
    assert struct.unpack_from("<IIIIhH", text, 25 + 16 + 24) == (0x80, 4, 4, 4, -16, 0)
    z = lvl.zones
    assert z.mask[0] == 0xFFFFFFFF and not z.mask[1:].any() and z.grid.shape == (2, 3)
    assert len(lvl.tiles) == 0
    obj = lvl.objects[0]
    assert obj.rigid_vertex_count == 3
    # the object's face: batch bit and the plain triangle rule, nothing else
    assert obj.face_flags.tolist() == [0x8]
    assert obj.triangles.tolist() == [[0, 1, 2]]
    stored = lvl.models_in("export", objects=True)[0]
    assert stored.triangles.tolist() == [[0, 2, 1]]
    assert stored.positions.tolist() == [[0, 0, 0], [1, 0, 0], [0, 1, -1]]
    assert [p.kind for p in lvl.pages] == ["pal8", "rgb16", "rle16"]
    assert lvl.pages[0].rgba[0, 1].tolist() == [255, 0, 0, 255]


def test_new_level_bad_input():
    with pytest.raises(ValueError, match="kind"):
        _tiny(pages=[("png", np.zeros((2, 2), np.uint8))])
    with pytest.raises(ValueError, match="no palette"):
        _tiny(palettes=[])
    with pytest.raises(ValueError, match="palette 0 has 3"):
        _tiny(pages=[("pal8", np.full((2, 2), 7, np.uint8))])
    with pytest.raises(ValueError, match="texture 5"):
        _tiny(objects=[{"positions": [[0, 0, 0]] * 3, "triangles": [[0, 1, 2]],
                        "texture": [5], "uv": np.zeros((1, 3, 2))}])
    with pytest.raises(ValueError, match="vertex 9"):
        _tiny(objects=[{"positions": [[0, 0, 0]] * 3, "triangles": [[0, 1, 9]],
                        "texture": [0], "uv": np.zeros((1, 3, 2))}])
    with pytest.raises(ValueError, match="zone 40"):
        _tiny(zone_grid=np.full((2, 3), 40))
    with pytest.raises(ValueError, match="zone grid"):
        _tiny(zone_grid=np.zeros((5, 5)))
    with pytest.raises(wadkit.LimitError, match="grid"):
        _tiny(width=0)
    with pytest.raises(ValueError, match="WFPC"):
        _tiny(flags=0x10000)


# ---- RC2 ----

@pytest.fixture(scope="module")
def rc2_level(built):
    return rc2.open(built["rc2"])


def test_rc2_statistics(rc2_level):
    lvl = rc2_level
    n = rc2_sample.PATCHES ** 2
    assert len(lvl.patches) == n
    terrain = lvl.terrain(0)
    per_patch = 2 * rc2_sample.QUADS ** 2
    assert len(terrain["triangles"]) == n * per_patch
    assert sorted(np.unique(terrain["patch"])) == list(range(n))
    assert np.bincount(terrain["patch"]).tolist() == [per_patch] * n
    assert sorted(np.unique(terrain["texture"])) == [0, 1, 2]
    for lod in (1, 2):
        assert len(lvl.terrain(lod)["triangles"]) == n * per_patch
    # triangles face up (+Z): strips wound consistently
    p = terrain["positions"][terrain["triangles"]]
    nz = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])[:, 2]
    assert (nz > 0).all()
    assert set(lvl.extents) == {"data", "gameplay"}
    assert set(lvl.sections) == {"core_index", "gs_ram", "core_data"}


def test_rc2_by_hand(rc2_level):
    lvl = rc2_level
    h = lvl.core_header
    raw = open(lvl.path, "rb").read()
    assert struct.unpack_from("<iii", raw, 0) == (0x60, 0, rc2_sample.LEVEL_ID)
    off, size = lvl.sections["core_data"]
    # data: sector 1, as many sectors as reach the end of core_data (the
    # last section); gameplay right after it
    data_sectors = -(-(off + size - 2048) // 2048)
    assert struct.unpack_from("<iiii", raw, 0x10) == (1, data_sectors, 0, 0)
    gp_sectors = struct.unpack_from("<ii", raw, 0x20)[1]
    assert struct.unpack_from("<i", raw, 0x20)[0] == 1 + data_sectors and gp_sectors >= 1
    assert len(raw) == (1 + data_sectors + gp_sectors) * 2048
    # 0x88 = the WAD-LZ stream's own size field (unaligned at +3)
    assert raw[off:off + 3] == b"WAD"
    assert struct.unpack_from("<i", raw, off + 3)[0] == h["compressed_size"] == size
    assert len(lvl.core_data) == h["decompressed_size"]
    assert lz.validate(bytes(raw[off:off + size])) == []
    assert h["tfrags"] == 0 < h["occlusion"] < h["sky"] < h["collision"] \
        < h["textures_base"]
    # 3 terrain palettes, then one per class texture (crate, stone, metal,
    # grass, leaves)
    npal = 3 + len(rc2_sample.CLASS_TEXTURES)
    assert h["gs_ram"] == (npal, 0xC0) and h["tfrag_textures"] == (3, 0xC0 + npal * 16)
    # gs_ram: palette k at k·1024, CLUT order (index bits 3/4 swapped),
    # alpha 0x80 = opaque
    tex, pals = rc2_sample._textures(np.random.default_rng(0 + 0x5243))
    gs = bytes(lvl.gs_ram)
    assert len(gs) == npal * 1024
    for k in range(3):
        for i in (0, 8, 16, 24, 255):
            j = i ^ 0x18 if ((i >> 4) & 1) != ((i >> 3) & 1) else i
            stored = gs[k * 1024 + 4 * j:k * 1024 + 4 * j + 4]
            assert stored == bytes(pals[k, i, :3]) + b"\x80"
    # texture entries: data offset, 64×64, palette field k·4 (gs_ram k·0x400)
    idx = bytes(lvl.core_index)
    for k in range(3):
        e = struct.unpack_from("<i6h", idx, 0xC0 + npal * 16 + 16 * k)
        assert e == (k * 64 * 64, 64, 64, 0, 4 * k, 0, 0)
        assert np.array_equal(lvl.tfrag_textures[k][..., :3], pals[k][tex[k][0]][..., :3])
    # the tag and the patch grid right after the gameplay header
    assert lvl.gameplay[0x9C:0x9C + 40] == b"WADKIT-SAMPLE-GAMEPLAY\0\0" + struct.pack(
        "<4i", rc2_sample.PATCHES, rc2_sample.PATCHES, rc2_sample.QUADS, 0)


def test_rc2_build_level_bad_input():
    tex = [(np.zeros((4, 4), np.uint8), 0)]
    pals = np.zeros((1, 256, 4), np.uint8)
    block = rc2.build_tfrags([])
    with pytest.raises(ValueError, match=r"palettes: shape \(n, 256, 4\) expected"):
        rc2.build_level(block, tex, np.zeros((1, 16, 4), np.uint8), b"g")
    with pytest.raises(TypeError, match="palettes: an array of float64"):
        rc2.build_level(block, tex, np.zeros((1, 256, 4)), b"g")
    with pytest.raises(wadkit.LimitError, match="palette 1 of 1"):
        rc2.build_level(block, [(np.zeros((4, 4), np.uint8), 1)], pals, b"g")
    with pytest.raises(ValueError, match="gameplay"):
        rc2.build_level(block, tex, pals, b"")
    with pytest.raises(ValueError, match="pixels of shape"):
        rc2.build_level(block, [(np.zeros(16, np.uint8), 0)], pals, b"g")


def _expand5(c: np.ndarray) -> np.ndarray:
    """RGBA 0..255 -> what an ABGR1555 pixel shows: each channel to the
    5-bit value whose (v << 3) | (v >> 2) is nearest (docs/formats/eng.md)."""
    v = np.arange(32)
    e = (v << 3) | (v >> 2)
    return e[np.abs(c[..., None].astype(int) - e).argmin(-1)].astype(np.uint8)


def test_eng_pages_hold_the_generated_pixels(eng_level):
    # the builder draws the pages first from the seed's generator
    pages, palettes = eng_sample._pages_and_palette(np.random.default_rng(0))
    pal = eng_level.palettes[0].rgba
    assert np.array_equal(pal[:, :3], _expand5(palettes[0][:, :3]))
    for page, (kind, px) in zip(eng_level.pages, pages):
        assert page.kind == kind
        if kind == "pal8":
            assert np.array_equal(page.rgba, pal[px])
        else:
            assert np.array_equal(page.rgba[..., :3], _expand5(px[..., :3]))
            assert (page.rgba[..., 3] == 255).all()


def test_new_level_refuses_non_finite_object_vertices():
    """As the write path does: a NaN or infinite vertex is a ValueError (it
    used to be written into the STPC model as it was)."""
    for bad in (np.nan, np.inf):
        with pytest.raises(ValueError, match="object 0: vertex 1 is not finite"):
            _tiny(objects=[{"positions": [[0, 0, 0], [bad, 0, 0], [0, 0, 1]],
                            "triangles": [[0, 1, 2]], "texture": [0],
                            "uv": np.zeros((1, 3, 2))}])
