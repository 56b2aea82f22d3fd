"""The sample level content (wadkit.demo): deterministic, realistic sizes,
UVs the engine can show (half of a texture rectangle), upward terrain,
pixel encoding by hand, and a base WAD the readers accept."""
import numpy as np
import pytest

import wadkit
from wadkit import demo


@pytest.fixture(scope="module")
def island():
    return demo.eng_island(1)


def test_deterministic_from_seed(island):
    again = demo.eng_island(1)
    for k in ("positions", "uv", "texture", "color"):
        np.testing.assert_array_equal(island[k], again[k])
    other = demo.eng_island(2)
    assert not np.array_equal(other["positions"][:100], island["positions"][:100]) \
        or len(other["positions"]) != len(island["positions"])


def test_realistic_statistics(island):
    t = len(island["triangles"])
    assert 20_000 <= t <= 30_000
    p = island["positions"]
    assert p[:, [0, 2]].min() >= 0 and p[:, [0, 2]].max() <= demo.GRID
    first = p[island["triangles"][:, 0]]
    cells = np.unique(np.floor(first[:, [0, 2]]).astype(int), axis=0)
    assert 300 <= len(cells) <= demo.GRID ** 2      # hundreds of tiles
    used = set(np.unique(island["texture"]).tolist())
    assert {demo.TEX[n] for n in ("grass", "sand", "rock", "water", "crate",
                                  "stone")} <= used
    assert island["color"].min() >= 0.2 and island["color"].max() <= 1.0


def test_uvs_are_half_rectangles_of_their_texture(island):
    rect = demo.texture_rects()[island["texture"]]          # (T,4) U0 V0 U1 V1
    uv = island["uv"]
    u, v = uv[..., 0], uv[..., 1]
    eps = 1e-6
    on_u = (np.abs(u - rect[:, None, 0]) < eps) | (np.abs(u - rect[:, None, 2]) < eps)
    on_v = (np.abs(v - rect[:, None, 1]) < eps) | (np.abs(v - rect[:, None, 3]) < eps)
    assert on_u.all() and on_v.all()                 # every corner is a rect corner
    corners = np.round(uv * 4096).astype(np.int64)
    distinct = (corners[:, 0] != corners[:, 1]).any(1) & \
        (corners[:, 1] != corners[:, 2]).any(1) & (corners[:, 0] != corners[:, 2]).any(1)
    assert distinct.all()                            # three different corners = half


def test_terrain_faces_up_and_walls_face_out(island):
    p = island["positions"][island["triangles"]]
    n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    terrain = np.isin(island["texture"], [demo.TEX[k] for k in ("grass", "sand", "dirt", "water")])
    assert (n[terrain][:, 1] > 0).all()


def test_collision_has_the_death_plane(island):
    pos, tri, mat = island["collision"]
    plane = mat == 0x1E
    assert plane.sum() == 2 * demo.GRID ** 2
    np.testing.assert_allclose(pos[tri[plane]][..., 1], demo.DEATH_Y)
    assert (mat[~plane] == 0).all() and (~plane).sum() == len(island["triangles"]) - \
        (island["texture"] == demo.TEX["water"]).sum()


def test_abgr1555_by_hand():
    px = np.array([[[255, 0, 0, 255], [0, 0, 0, 0], [0, 255, 0, 128],
                    [0, 0, 255, 255], [0, 0, 0, 255], [8, 16, 24, 255]]], np.uint8)
    w = demo.rgba_to_abgr1555(px)[0].tolist()
    assert w == [0x001F, 0x0000, 0x83E0, 0x7C00, 0x0001,
                 1 | (2 << 5) | (3 << 10)]


def test_base_wad_container():
    tx = demo.textures(1)
    data = demo.base_wad(demo.text_payload(*tx["pal8"], tx["rgb16"], tx["rle16"]))
    lvl = wadkit.eng.from_bytes(data)
    assert [c.tag for c in lvl.chunks] == ["INFO", "WFPC", "TEXT", "TRAK", "STPC",
                                           "MAP ", "END "]
    assert lvl.declared_length == len(data) and lvl.warnings == []


def test_base_wad_pages_decode_to_the_pictures():
    if not hasattr(wadkit.eng.Level, "pages"):
        pytest.skip("TEXT reader not in this build")
    tx = demo.textures(1)
    idx, pal = tx["pal8"]
    lvl = wadkit.eng.from_bytes(
        demo.base_wad(demo.text_payload(idx, pal, tx["rgb16"], tx["rle16"])))
    assert [p.kind for p in lvl.pages] == ["pal8", "rgb16", "rle16"]
    # 5-bit channels: within 4 of the 8-bit source; alpha exactly 255/128
    want0 = pal[idx]
    assert np.abs(lvl.pages[0].rgba.astype(int) - want0).max() <= 4
    assert np.abs(lvl.pages[1].rgba[..., :3].astype(int)
                  - tx["rgb16"][..., :3]).max() <= 4
    np.testing.assert_array_equal(lvl.pages[1].rgba[..., 3], tx["rgb16"][..., 3])
    lvl.set_page_rgba(2, tx["rle16"])
    np.testing.assert_array_equal(lvl.pages[2].rgba[..., 3], tx["rle16"][..., 3])
    t = lvl.textures
    assert t["blend"].tolist()[:len(demo.TEXTURES)] == [b for *_, b in demo.TEXTURES]
    assert t["flat"][-1] and t["color"][-1].tolist() == [220, 40, 40]
    np.testing.assert_allclose(t["rect"][:len(demo.TEXTURES)], demo.texture_rects())


@pytest.mark.slow
def test_demo_command_end_to_end(tmp_path, capsys):
    if not hasattr(wadkit.eng.Level, "with_geometry"):
        pytest.skip("the ENG write path is not in this build")
    from wadkit import cli, export
    out = tmp_path / "d"
    rc = cli.main(["demo", str(out)])
    rc2 = getattr(wadkit, "rc2", None)
    if rc2 is not None and hasattr(rc2, "build_tfrags"):
        assert rc == 0
        assert (out / "sample_rc2.glb").stat().st_size > 0
        assert (out / "sample_rc2_textures" / "tfrag_003.png").is_file()
    else:            # the RC2 sample says it cannot be made; ENG is still made
        assert rc == 1
    lvl = wadkit.eng.open(out / "sample_eng.wad")
    mesh = lvl.world_mesh()
    isl = demo.eng_island(1)
    # the same triangles with the same UVs (corner orders are the engine's
    # own quad halves, so every UV is fitted exactly), order-free
    def canon(a):
        f = np.round(a.reshape(len(a), -1).astype(np.float64), 3)
        return f[np.lexsort(f.T[::-1])]
    got = np.concatenate([mesh["positions"][mesh["triangles"]], mesh["uv"]], 2)
    want = np.concatenate([isl["positions"][isl["triangles"]], isl["uv"]], 2)
    assert got.shape == want.shape
    np.testing.assert_allclose(canon(got), canon(want), atol=2e-3)
    assert len(lvl.tiles.model) >= 300
    assert lvl.zones.grid.shape == (demo.GRID, demo.GRID)    # grid not grown
    assert (out / "sample_eng.glb").stat().st_size > 0
    assert (out / "sample_eng_textures" / "page_02.png").is_file()
    assert "ENG sample level" in capsys.readouterr().out


# ---------------------------------------------------------------- RC2 sample

from wadkit import demo_rc2 as D2   # noqa: E402


def test_rc2_patches_within_the_writer_limits():
    meshes = D2.terrain_meshes(1)
    assert len(meshes) == 24 * 24
    m = meshes[0]
    assert m["positions"].shape == (35, 3) and m["uv"].shape == (35, 2)
    assert [len(s) for s in m["strips"]] == [14] * 4     # 12 triangles each
    assert all(0 <= t < 4 for mm in meshes for t in mm["textures"])
    tris = sum(sum(len(s) - 2 for s in mm["strips"]) for mm in meshes)
    assert tris == 27_648
    # neighbouring patches share their edge vertices exactly (no cracks)
    right = meshes[1]["positions"].reshape(5, 7, 3)[:, 0]
    np.testing.assert_array_equal(m["positions"].reshape(5, 7, 3)[:, -1], right)


def test_clut_swizzle_by_hand():
    i = np.array([0, 7, 8, 16, 24, 0x48, 0x50, 255])
    assert D2._swap34(i).tolist() == [0, 7, 16, 8, 24, 0x50, 0x48, 255]


def test_rc2_container_layout_by_hand():
    """Header, data extent pair table and core header, read back with struct
    (a stand-in compressor: 'WAD' + s32 size + 9 pad bytes + the bytes)."""
    import struct

    def fake_compress(b):
        return b"WAD" + struct.pack("<i", 16 + len(b)) + bytes(9) + b

    texs = D2.textures(1)
    data = D2.level_bytes(b"\x11" * 40, texs, fake_compress, level_id=7)
    size, _, lid = struct.unpack_from("<iii", data, 0)
    assert (size, lid) == (0x60, 7)
    dsec, dcnt = struct.unpack_from("<ii", data, 0x10)
    gsec, gcnt = struct.unpack_from("<ii", data, 0x20)
    assert dsec == 1 and gsec == 1 + dcnt and len(data) == (gsec + gcnt) * 2048
    ext = data[dsec * 2048:(dsec + dcnt) * 2048]
    pairs = [struct.unpack_from("<ii", ext, 8 * k) for k in range(11)]
    (io, isz), (go, gsz), (co, csz) = pairs[1], pairs[2], pairs[9]
    assert io == 0x60 and go % 16 == 0 and co % 16 == 0
    assert [p for k, p in enumerate(pairs) if k not in (1, 2, 9)] == [(0, 0)] * 8
    assert gsz == 4 * 1024
    head = struct.unpack_from("<47i", ext, io)
    core = ext[co + 16:co + csz]
    assert head[0x88 // 4] == csz and head[0x8C // 4] == len(core)
    assert head[0x08 // 4] == 0 < head[0x0C // 4] < head[0x10 // 4] < \
        head[0x14 // 4] < head[0x60 // 4] <= len(core)
    assert core[:40] == b"\x11" * 40
    assert (head[0x30 // 4], head[0x34 // 4]) == (4, 0xC0)
    base = head[0x60 // 4]
    for k, (px, pal) in enumerate(texs):
        ofs, w, h, _, palette = struct.unpack_from("<ihhhh", ext, io + 0xC0 + 16 * k)
        assert (w, h, palette) == (64, 64, 4 * k)
        assert core[base + ofs:base + ofs + 4096] == px.tobytes()
        stored = np.frombuffer(ext[go + k * 1024:go + (k + 1) * 1024], np.uint8)
        np.testing.assert_array_equal(stored.reshape(256, 4)[16], pal[8])   # swapped
        np.testing.assert_array_equal(stored.reshape(256, 4)[7], pal[7])


def test_rc2_demo_level_reads_back():
    rc2 = pytest.importorskip("wadkit.rc2")
    if not hasattr(rc2, "build_tfrags"):
        pytest.skip("RC2 tfrag writer not in this build")
    lvl = rc2.from_bytes(D2.build_rc2_demo(1))
    t = lvl.terrain()
    assert len(t["triangles"]) == 27_648 and len(lvl.patches) == 576
    for (px, pal), got in zip(D2.textures(1), lvl.tfrag_textures):
        want = pal[px].copy()
        want[..., 3] = 255                     # PS2 alpha 0x80 = opaque
        np.testing.assert_array_equal(got, want)
    p = t["positions"]
    np.testing.assert_allclose(p.min(0)[:2], [0, 0])
    np.testing.assert_allclose(p.max(0)[:2], [72, 48])
