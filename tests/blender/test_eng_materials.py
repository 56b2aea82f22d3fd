"""Materials and texture entries, texture painting and UV edits (issue 15),
each exported from a real Blender and read back with wadkit as the user
meant, or refused with a report naming the object and the material. The
level (levels.paint_level) has a page of each kind: 0 rgb16, 1 pal8, 2 rle16."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import materials
from blender_addon.export_eng import ExportError
from builders import eng_text as T

import levels
from editing import export, load

pytestmark = pytest.mark.every_blender
RED, GREEN, BLUE = levels.RED, levels.GREEN, levels.BLUE


@pytest.fixture
def paint(tmp_path):
    p = tmp_path / "paint.wad"
    p.write_bytes(levels.paint_level())
    return str(p)


def tile_faces(lvl, tile):
    """[(texture entry, {file-space corner: uv})] of a tile's faces."""
    wm = lvl.world_mesh()
    out = []
    for f in np.flatnonzero(wm["tile"] == tile):
        pos = wm["positions"][wm["triangles"][f]]
        out.append((int(wm["texture"][f]),
                    {tuple(np.round(p, 4)): tuple(uv) for p, uv in zip(pos, wm["uv"][f])}))
    return out


def face_on(lvl, tile, page):
    t = lvl.textures
    (got,) = [(e, uv) for e, uv in tile_faces(lvl, tile) if t["page"][e] == page
              and not t["flat"][e]]
    return got


def assign(ob, mat, face=0):
    me = ob.data
    if mat.name not in [m.name for m in me.materials if m]:
        me.materials.append(mat)
    me.polygons[face].material_index = [m.name for m in me.materials].index(mat.name)


def image_material(name, img):
    mat = bpy.data.materials.new(name)
    nodes = materials._node_tree(mat).nodes
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = img
    bsdf = next(n for n in nodes if n.type == "BSDF_PRINCIPLED")
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    return mat


def uvs_close(a, b, tol=0.5 / 256):
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_allclose(a[k], b[k], atol=tol)


def test_another_level_material_changes_the_faces_texture_entry(scene, paint, tmp_path):
    src = wadkit.eng.open(paint)
    load(paint)
    ob = bpy.data.objects["paint tile 0"]
    assign(ob, bpy.data.materials["paint page 01 b1"])      # face 0: page 0 -> page 1
    out = tmp_path / "o.wad"
    how, notes = export(out)
    new = wadkit.eng.open(str(out))
    t = new.textures
    e, uv = face_on(new, 0, 1)
    assert (t["page"][e], t["blend"][e]) == (1, 1)
    _, uv_src = face_on(src, 0, 0)
    uvs_close(uv, uv_src)                                   # the same UVs, on page 1
    flat = [x for x, _ in tile_faces(new, 0) if t["flat"][x]]
    assert len(flat) == 1 and t["color"][flat[0]].tolist() == [0xFF, 0x80, 0x00]
    assert tile_faces(new, 2) == tile_faces(src, 2)         # tile 2 shares the model


def test_a_new_material_on_a_level_image(scene, paint, tmp_path):
    load(paint)
    ob = bpy.data.objects["paint tile 0"]
    assign(ob, image_material("Mine", bpy.data.images["paint page 01"]))
    out = tmp_path / "o.wad"
    how, notes = export(out)
    assert "texture entries for new materials" in how, how
    new = wadkit.eng.open(str(out))
    t = new.textures
    e, _ = face_on(new, 0, 1)
    assert (t["page"][e], t["blend"][e]) == (1, 0)          # blend 0: a new entry
    assert len(t["page"]) > len(wadkit.eng.open(paint).textures["page"])


def _pattern(w, h):
    y, x = np.mgrid[0:h, 0:w]
    rgba = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x ^ y) & 255,
                     np.full_like(x, 255)], axis=-1).astype(np.uint8)
    return rgba


def loaded_image(name, rgba):
    h, w = rgba.shape[:2]
    img = bpy.data.images.new(name, w, h, alpha=True)
    img.pixels.foreach_set((rgba[::-1].astype(np.float32) / 255).reshape(-1))
    return img


def test_a_new_material_on_a_loaded_image_becomes_a_new_page(scene, paint, tmp_path):
    load(paint)
    rgba = _pattern(64, 32)
    ob = bpy.data.objects["paint tile 0"]
    assign(ob, image_material("Bricks", loaded_image("Bricks", rgba)))
    out = tmp_path / "o.wad"
    how, notes = export(out)
    assert any("'Bricks' is 64 × 32: scaled to 256 × 256" in n for n in notes), notes
    assert any("'Bricks' became texture page 3" in n for n in notes), notes
    new = wadkit.eng.open(str(out))
    assert len(new.pages) == 4
    pg = new.pages[3]
    assert (pg.width, pg.height, pg.kind) == (256, 256, "rle16")
    want = rgba[(np.arange(256) * 32) // 256][:, (np.arange(256) * 64) // 256]
    assert np.abs(pg.rgba.astype(int) - want).max() <= 4      # 5 bits per channel
    e, _ = face_on(new, 0, 3)
    assert new.textures["page"][e] == 3


def test_a_loaded_image_on_a_full_text_is_refused_naming_object_and_material(
        scene, tmp_path):
    p = tmp_path / "full.wad"
    p.write_bytes(levels.paint_level(extra_pages=125))
    assert len(wadkit.eng.open(str(p)).pages) == 128
    load(str(p))
    assign(bpy.data.objects["full tile 0"],
           image_material("Bricks", loaded_image("Bricks", _pattern(8, 8))))
    out = tmp_path / "o.wad"
    with pytest.raises(ExportError) as info:
        export(out)
    msg = str(info.value)
    assert "object 'full tile 0', material 'Bricks'" in msg and "TEXT is full" in msg, msg
    assert not out.exists()


def set_texels(img, texels, rgba):
    """Paint texels [(row from the top, column)] of img with rgba (bytes)."""
    w, h = img.size
    px = np.empty(w * h * 4, np.float32)
    img.pixels.foreach_get(px)
    px = px.reshape(h, w, 4)
    for r, c in texels:
        px[h - 1 - r, c] = np.array(rgba, np.float32) / 255
    img.pixels.foreach_set(px.reshape(-1))


@pytest.mark.parametrize("page, kind, texels, paint_rgba, want_word", [
    (0, "rgb16", [(2, 3), (3, 3)], (0, 0, 255, 255), BLUE),
    (1, "pal8", [(0, 0)], (250, 10, 5, 255), 1),            # nearest: RED (index 1)
    (2, "rle16", [(0, 0), (0, 1), (1, 0), (1, 1)], (255, 255, 255, 255), 0xFFFF),
])
def test_painting_a_page_writes_it_back_in_its_kind(scene, paint, tmp_path, page, kind,
                                                    texels, paint_rgba, want_word):
    src = wadkit.eng.open(paint)
    load(paint)
    img = bpy.data.images[f"paint page {page:02d}"]
    set_texels(img, texels, paint_rgba)
    out = tmp_path / "o.wad"
    how, notes = export(out)
    assert how == f"patched: pages {page} painted", how
    assert any(f"written into page {page} ({kind}" in n for n in notes), notes
    new = wadkit.eng.open(str(out))
    assert new.pages[page].kind == kind
    before = T.read_pages(bytes(src.chunk("TEXT")))
    after = T.read_pages(bytes(new.chunk("TEXT")))
    for k in range(3):                                      # the other pages: their bytes
        if k != page:
            assert after[k]["record"] == before[k]["record"]
    w = before[page]["w"]
    words = {"rle16": lambda p: T.rle16_decode(p["words"], 64)}.get(kind, lambda p: p["words"])
    old, now = words(before[page]), words(after[page])
    hit = {r * w + c for r, c in texels}
    for i, (a, b) in enumerate(zip(old, now)):
        assert b == (want_word if i in hit else a), i        # untouched texels: their words
    if kind == "rgb16":
        assert now[5] == GREEN | 0x8000                      # bit 15 of a kept texel
    if kind == "pal8":
        assert any("nearest colours of its palette" in n for n in notes), notes
    for tag in ("TRAK", "MAP "):                             # only TEXT changed
        assert bytes(new.chunk(tag)) == bytes(src.chunk(tag))


def test_a_uv_shift_is_fitted_and_reported(scene, paint, tmp_path):
    src = wadkit.eng.open(paint)
    load(paint)
    ob = bpy.data.objects["paint tile 0"]
    me = ob.data
    mi = np.empty(len(me.polygons), np.int32)
    me.polygons.foreach_get("material_index", mi)
    face = int(np.flatnonzero([me.materials[i].name == "paint page 00 b0" for i in mi])[0])
    uv = me.uv_layers.active.data
    for li in me.polygons[face].loop_indices:
        uv[li].uv = (uv[li].uv[0] + 0.01, uv[li].uv[1])
    out = tmp_path / "o.wad"
    how, notes = export(out)
    fit = [n for n in notes if "fitted to their UVs" in n]
    assert fit and "largest UV error 0.44 texels" in fit[0], notes
    new = wadkit.eng.open(str(out))
    _, uv_new = face_on(new, 0, 0)
    _, uv_src = face_on(src, 0, 0)
    shifted = {k: (u + 0.01, v) for k, (u, v) in uv_src.items()}
    uvs_close(uv_new, shifted)                               # within half a texel


def test_a_material_that_maps_to_nothing_is_named(scene, paint, tmp_path):
    load(paint)
    mat = bpy.data.materials.new("Noisy")
    nodes = materials._node_tree(mat).nodes
    noise = nodes.new("ShaderNodeTexNoise")
    bsdf = next(n for n in nodes if n.type == "BSDF_PRINCIPLED")
    mat.node_tree.links.new(noise.outputs["Color"], bsdf.inputs["Base Color"])
    assign(bpy.data.objects["paint tile 0"], mat)
    out = tmp_path / "o.wad"
    how, notes = export(out)
    assert any("object 'paint tile 0', material 'Noisy'" in n and "no image" in n
               for n in notes), notes
    assert any("'paint tile 0'" in n and "'Noisy'" in n and "keep their texture entry" in n
               for n in notes), notes
    new = wadkit.eng.open(str(out))
    assert new.textures["page"][face_on(new, 0, 0)[0]] == 0   # the entry it had
