"""Export of levels to glTF 2.0 (.glb, .gltf + .bin), OBJ + MTL and PNG.

    from wadkit import export
    scene = export.level_scene(wadkit.open("lvl.wad"), collision=True)
    export.write_glb(scene, "lvl.glb")
    export.summary(scene)   # triangle count and bounds, to compare a re-import

Python + NumPy glue over the readers' documented API (see levels.py).
"""
from __future__ import annotations

import os

import numpy as np

from .gltf import build as build_gltf, glb_bytes, write_glb, write_gltf
from .levels import eng_scene, lacks_chunk, level_scene, missing_chunk
from .rc2 import rc2_scene
from .obj import write_obj
from .png import png_bytes, read_png, write_png
from .scene import Instanced, Layer, Material, Scene

FORMATS = ("glb", "gltf", "obj")
_WRITERS = {"glb": write_glb, "gltf": write_gltf, "obj": write_obj}

__all__ = ["FORMATS", "Instanced", "Layer", "Material", "Scene", "blender_expectation",
           "build_gltf", "eng_scene",
           "export_level", "glb_bytes", "level_images", "level_scene",
           "png_bytes", "rc2_scene", "read_png", "summary", "write",
           "write_glb", "write_gltf", "write_obj", "write_png",
           "write_textures"]


def write(scene: Scene, path: str | os.PathLike, format: str | None = None) -> str:
    """Write a scene in a format (from the extension when None); returns it."""
    fmt = format or os.path.splitext(os.fspath(path))[1].lstrip(".").lower()
    if fmt not in _WRITERS:
        raise ValueError(f"unknown export format {fmt!r} (one of {', '.join(FORMATS)})")
    _WRITERS[fmt](scene, path)
    return fmt


def export_level(lvl, path: str | os.PathLike, format: str | None = None, *,
                 collision=False, objects=False, lod=0, sky=False, instancing="auto",
                 notes: list | None = None) -> dict:
    """Open level → file. Returns summary() of what was written; notes
    (RC2) gets a line per part or class not converted."""
    scene = level_scene(lvl, collision=collision, objects=objects, lod=lod, sky=sky,
                        instancing=instancing, notes=notes)
    write(scene, path, format)
    return summary(scene)


def summary(scene: Scene) -> dict:
    """What a re-import must reproduce: per layer and in total, the triangle
    count and the bounds (min, max) of the vertices the triangles use.
    For the Blender check: import the .glb, count triangles, compare bounds
    (Blender's importer converts glTF y-up to its z-up: (x, y, z) → (x, -z, y))."""
    layers, lo_all, hi_all, total = {}, None, None, 0
    for layer in scene.layers:
        tri = np.asarray(layer.mesh["triangles"])
        n = len(tri)
        if n == 0:
            continue
        p = np.asarray(layer.mesh["positions"], dtype=np.float32)[tri.ravel()]
        lo, hi = p.min(axis=0), p.max(axis=0)
        layers[layer.name] = {"triangles": n, "min": lo.tolist(), "max": hi.tolist(),
                              "groups": int(len(np.unique(layer.mesh["group"])))}
        lo_all = lo if lo_all is None else np.minimum(lo_all, lo)
        hi_all = hi if hi_all is None else np.maximum(hi_all, hi)
        total += n
    for inst in scene.instanced:
        s = _instanced_summary(inst)
        if s is None:
            continue
        layers[inst.name] = s
        lo, hi = np.array(s["min"]), np.array(s["max"])
        lo_all = lo if lo_all is None else np.minimum(lo_all, lo)
        hi_all = hi if hi_all is None else np.maximum(hi_all, hi)
        total += s["triangles"]
    return {"triangles": total,
            "min": lo_all.tolist() if lo_all is not None else None,
            "max": hi_all.tolist() if hi_all is not None else None,
            "layers": layers}


def _instanced_summary(inst) -> dict | None:
    """An instanced layer's numbers: triangles drawn (every instance's),
    instances, meshes (classes with a mesh that have instances), and the
    bounds of every instance's vertices (those its triangles use)."""
    tris, los, his, meshes = 0, [], [], 0
    cls = np.asarray(inst.instance_class)
    for ci, (_, m) in enumerate(inst.classes):
        rows = np.flatnonzero(cls == ci)
        if m is None or not len(m["triangles"]) or not len(rows):
            continue
        p = np.asarray(m["positions"], np.float64)[np.unique(np.asarray(m["triangles"]))]
        mats = np.asarray(inst.matrices, np.float64)[rows]
        w = np.einsum("kij,vj->kvi", mats[:, :3, :3], p) + mats[:, None, :3, 3]
        los.append(w.min(axis=(0, 1)))
        his.append(w.max(axis=(0, 1)))
        tris += len(m["triangles"]) * len(rows)
        meshes += 1
    if not meshes:
        return None
    return {"triangles": tris,
            "min": np.min(los, axis=0).astype(np.float32).tolist(),
            "max": np.max(his, axis=0).astype(np.float32).tolist(),
            "instances": len(cls), "meshes": meshes}


def blender_expectation(summary_: dict, layer: str | None = None) -> dict:
    """What Blender's own glTF importer must show for a file written from a
    scene with this summary(): the triangle count and the bounds in
    Blender's Z-up frame (the importer maps glTF (x, y, z) to (x, -z, y)).
    For the Blender test: import the .glb, sum the mesh triangles, take
    min/max over all world-space vertices, compare within float tolerance.
    layer: one layer's numbers (e.g. "world") instead of the total."""
    s = summary_ if layer is None else summary_["layers"][layer]
    (x0, y0, z0), (x1, y1, z1) = s["min"], s["max"]
    return {"triangles": s["triangles"],
            "min": [x0, -z1, y0], "max": [x1, -z0, y1]}


def _has(obj, name: str) -> bool:
    """hasattr without evaluating a property (which may raise FormatError)."""
    return hasattr(type(obj), name) or name in getattr(obj, "__dict__", {})


def level_images(lvl) -> list[tuple[str, np.ndarray]]:
    """(file stem, RGBA) of every texture page (ENG) or tfrag texture (RC2)."""
    if _has(lvl, "tfrag_textures"):
        return [(f"tfrag_{i:03d}", t) for i, t in enumerate(lvl.tfrag_textures)]
    if _has(lvl, "pages"):
        if lacks_chunk(lvl, "TEXT"):
            raise missing_chunk("TEXT", "the level has no texture pages")
        return [(f"page_{i:02d}", p.rgba) for i, p in enumerate(lvl.pages)]
    kind = type(lvl).__module__.rsplit(".", 1)[-1].upper()
    raise NotImplementedError(f"textures of {kind} levels are not built into "
                              "this wadkit yet")


def write_textures(lvl, outdir: str | os.PathLike) -> list[str]:
    """Every page / tfrag texture as PNG in outdir (created). Returns paths."""
    os.makedirs(outdir, exist_ok=True)
    out = []
    for stem, rgba in level_images(lvl):
        p = os.path.join(os.fspath(outdir), stem + ".png")
        write_png(rgba, p)
        out.append(p)
    return out
