"""Images from texture pages and materials from texture-table entries.

One image per page (packed into the .blend, named "<level> page NN"); one
material per (page, blend mode, flat colour) combination. The shader
multiplies the texel by the vertex colour; texels with alpha 0 (the engine's
transparent value 0) are cut out; blend modes other than 0 are shown
half-transparent [assumed: the engine's semi-transparent modes are drawn
as a 50 % blend; the exact per-mode equations are not in our sources]."""
from __future__ import annotations

import struct
import zlib
from typing import NamedTuple

import bpy
import numpy as np

COLOR_ATTR = "Col"        # first vertex colour set
COLOR2_ATTR = "Col2"      # second set, where a tile has one


class TexKey(NamedTuple):
    page: int                 # -1 for flat-colour entries
    blend: int
    flat: tuple | None        # (r, g, b) 0..255 or None


def texture_key(table, i: int) -> TexKey:
    """The material key of entry i of lvl.textures (a dict of arrays)."""
    blend = int(table["blend"][i])
    if bool(table["flat"][i]):
        return TexKey(-1, blend, tuple(int(c) for c in table["color"][i][:3]))
    return TexKey(int(table["page"][i]), blend, None)


def png_bytes(rgba: np.ndarray) -> bytes:
    """(H,W,4) uint8 RGBA, row 0 at the top, as a PNG file: 8-bit RGBA, no
    row filters, deflate without compression (level 0: the fastest; the
    .blend can be compressed on save)."""
    rgba = np.asarray(rgba, np.uint8)
    h, w = rgba.shape[:2]
    raw = np.zeros((h, 1 + 4 * w), np.uint8)          # filter byte 0 per row
    raw[:, 1:] = rgba.reshape(h, 4 * w)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data)))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw.tobytes(), 0)) + chunk(b"IEND", b""))


def make_image(name: str, rgba: np.ndarray) -> bpy.types.Image:
    """A packed image from (H,W,4) uint8 RGBA, row 0 at the top. The PNG
    is packed as it is and decoded by Blender when first shown (as images
    an importer loads from files are); Image.pack() would encode it again,
    which costs more than the rest of a level's import."""
    h, w = rgba.shape[:2]
    img = bpy.data.images.new(name, w, h, alpha=True)
    data = png_bytes(rgba)
    img.filepath_raw = f"//{bpy.path.clean_name(name)}.png"
    img.pack(data=data, data_len=len(data))
    img.source = "FILE"
    return img


def _set_blend(mat, transparent: bool) -> None:
    if hasattr(mat, "surface_render_method"):      # Blender 4.2+ (EEVEE Next)
        mat.surface_render_method = "BLENDED" if transparent else "DITHERED"
    if hasattr(mat, "blend_method") and bpy.app.version < (4, 2, 0):
        mat.blend_method = "BLEND" if transparent else "CLIP"


def _color_socket(sockets, name: str):
    """The colour socket called name of a Mix node (it also has float and
    vector sockets of the same name; by-name lookup is not reliable across
    Blender versions)."""
    return next(s for s in sockets if s.name == name and s.type == "RGBA")


_templates: dict[tuple, object] = {}     # material shape -> bpy material


def clear_cache() -> None:
    """Forget the template materials (on load_post and unregister: they
    belong to the file that was open)."""
    _templates.clear()


def _node_tree(mat):
    """The material's node tree. Blender 5.0 gives every new material one
    (and deprecates use_nodes); older versions make it on use_nodes."""
    if mat.node_tree is None:
        mat.use_nodes = True
    return mat.node_tree


def _principled(nodes):
    """The Principled BSDF of a new material's tree, found by type: its
    name is translated when new data names are."""
    return next(n for n in nodes if n.type == "BSDF_PRINCIPLED")


def make_material(name: str, key: TexKey, image, vertex_colors: bool):
    """Principled BSDF: base = texel (or flat colour) x vertex colour (white
    where the mesh has no colour attribute);
    alpha = texel alpha (x 0.5 for a semi-transparent blend mode).
    Materials of one shape (image or flat, blend, vertex colours) are
    copies of the first one made in this session (a copy in C costs a
    fraction of building the node tree again), given their own image or
    colour."""
    shape = (image is not None, key.blend != 0, vertex_colors)
    tpl = _templates.get(shape)
    try:
        if tpl is not None and tpl.name:          # raises once Blender freed it
            mat = tpl.copy()
            mat.name = name
            nodes = mat.node_tree.nodes
            if image is not None:
                nodes["wadkit texel"].image = image
            else:
                r, g, b = (c / 255.0 for c in key.flat)
                _color_socket(nodes["wadkit mix"].inputs, "A").default_value = (r, g, b, 1.0)
            mat["wadkit_page"] = key.page
            mat["wadkit_blend"] = key.blend
            return mat
    except (ReferenceError, KeyError):       # freed, or its nodes were edited
        pass
    mat = _build_material(name, key, image, vertex_colors)
    _templates[shape] = mat
    return mat


def _build_material(name: str, key: TexKey, image, vertex_colors: bool):
    mat = bpy.data.materials.new(name)
    nt = _node_tree(mat)
    nodes, links = nt.nodes, nt.links
    bsdf = _principled(nodes)
    bsdf.inputs["Roughness"].default_value = 1.0
    mix = nodes.new("ShaderNodeMix")
    mix.name = "wadkit mix"
    mix.data_type = "RGBA"
    mix.blend_type = "MULTIPLY"
    mix.inputs[0].default_value = 1.0           # Factor (float)
    mix.location = (-250, 250)
    mix_a, mix_b = _color_socket(mix.inputs, "A"), _color_socket(mix.inputs, "B")
    links.new(_color_socket(mix.outputs, "Result"), bsdf.inputs["Base Color"])
    alpha_socket = None
    if image is not None:
        tex = nodes.new("ShaderNodeTexImage")
        tex.name = "wadkit texel"
        tex.image = image
        tex.interpolation = "Closest"
        tex.location = (-600, 300)
        links.new(tex.outputs["Color"], mix_a)
        alpha_socket = tex.outputs["Alpha"]
    else:
        r, g, b = (c / 255.0 for c in key.flat)
        mix_a.default_value = (r, g, b, 1.0)
    if vertex_colors:
        # A mesh without the colour attribute (one the user made and gave a
        # level material) reads colour 0 and alpha 0 from it: white by the
        # alpha keeps such a mesh showing its texture instead of black. The
        # import's colours always have alpha 1 (docs/formats/eng.md).
        vc = nodes.new("ShaderNodeVertexColor")
        vc.layer_name = COLOR_ATTR
        vc.location = (-800, 0)
        white = nodes.new("ShaderNodeMix")
        white.name = "wadkit colour or white"
        white.data_type = "RGBA"
        white.blend_type = "MIX"
        white.location = (-550, 0)
        _color_socket(white.inputs, "A").default_value = (1.0, 1.0, 1.0, 1.0)
        links.new(vc.outputs["Alpha"], white.inputs[0])
        links.new(vc.outputs["Color"], _color_socket(white.inputs, "B"))
        links.new(_color_socket(white.outputs, "Result"), mix_b)
    else:
        mix_b.default_value = (1.0, 1.0, 1.0, 1.0)
    transparent = key.blend != 0
    if transparent:
        half = nodes.new("ShaderNodeMath")
        half.operation = "MULTIPLY"
        half.inputs[1].default_value = 0.5
        half.location = (-250, -100)
        if alpha_socket is not None:
            links.new(alpha_socket, half.inputs[0])
        else:
            half.inputs[0].default_value = 1.0
        alpha_socket = half.outputs["Value"]
    if alpha_socket is not None:
        links.new(alpha_socket, bsdf.inputs["Alpha"])
    _set_blend(mat, transparent)
    mat["wadkit_page"] = key.page
    mat["wadkit_blend"] = key.blend
    return mat


def collision_material(name: str, material: int):
    """A plain coloured material per ground material; the colour is a
    stable hash of the number so each material looks different.
    [assumed: water 0x11/0x12 and the death plane 0x1e are the materials the
    floor test treats specially; they get fixed, clearly different colours]"""
    special = {0x11: (0.1, 0.3, 1.0), 0x12: (0.1, 0.6, 1.0), 0x1e: (1.0, 0.05, 0.05)}
    if material in special:
        rgb = special[material]
    else:
        h = (material * 0x9E3779B1) & 0xFFFFFF
        rgb = (0.3 + 0.5 * ((h >> 16) & 255) / 255, 0.3 + 0.5 * ((h >> 8) & 255) / 255,
               0.3 + 0.5 * (h & 255) / 255)
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*rgb, 1.0)
    _principled(_node_tree(mat).nodes).inputs["Base Color"].default_value = (*rgb, 1.0)
    mat["wadkit_collision_material"] = material
    return mat
