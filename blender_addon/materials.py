"""Images from texture pages and materials from texture-table entries.

One image per page (packed into the .blend, named "<level> page NN"); one
material per (page, blend mode, flat colour) combination. The shader
multiplies the texel by the vertex colour; texels with alpha 0 (the engine's
transparent value 0) are cut out; blend modes other than 0 are shown
half-transparent [assumed: the engine's semi-transparent modes are drawn
as a 50 % blend; the exact per-mode equations are not in our sources]."""
from __future__ import annotations

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


def make_image(name: str, rgba: np.ndarray) -> bpy.types.Image:
    """A packed image from (H,W,4) uint8 RGBA, row 0 at the top."""
    h, w = rgba.shape[:2]
    img = bpy.data.images.new(name, w, h, alpha=True)
    px = np.ascontiguousarray(rgba[::-1], dtype=np.float32).ravel() / 255.0
    img.pixels.foreach_set(px)
    img.pack()
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


def make_material(name: str, key: TexKey, image, vertex_colors: bool):
    """Principled BSDF: base = texel (or flat colour) x vertex colour;
    alpha = texel alpha (x 0.5 for a semi-transparent blend mode)."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nt = mat.node_tree
    nodes, links = nt.nodes, nt.links
    bsdf = nodes.get("Principled BSDF")
    bsdf.inputs["Roughness"].default_value = 1.0
    mix = nodes.new("ShaderNodeMix")
    mix.data_type = "RGBA"
    mix.blend_type = "MULTIPLY"
    mix.inputs[0].default_value = 1.0           # Factor (float)
    mix.location = (-250, 250)
    mix_a, mix_b = _color_socket(mix.inputs, "A"), _color_socket(mix.inputs, "B")
    links.new(_color_socket(mix.outputs, "Result"), bsdf.inputs["Base Color"])
    alpha_socket = None
    if image is not None:
        tex = nodes.new("ShaderNodeTexImage")
        tex.image = image
        tex.interpolation = "Closest"
        tex.location = (-600, 300)
        links.new(tex.outputs["Color"], mix_a)
        alpha_socket = tex.outputs["Alpha"]
    else:
        r, g, b = (c / 255.0 for c in key.flat)
        mix_a.default_value = (r, g, b, 1.0)
    if vertex_colors:
        vc = nodes.new("ShaderNodeVertexColor")
        vc.layer_name = COLOR_ATTR
        vc.location = (-600, 0)
        links.new(vc.outputs["Color"], mix_b)
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
    mat.use_nodes = True
    mat.node_tree.nodes.get("Principled BSDF").inputs["Base Color"].default_value = (*rgb, 1.0)
    mat["wadkit_collision_material"] = material
    return mat
