"""Scene → glTF 2.0, as .glb (one file) or .gltf + .bin.

Written with the standard library (json + struct): the container is a
12-byte header and two length-prefixed chunks, and the JSON is plain data
we build anyway. A glTF library would add a dependency for the few lines
that pack it; pygltflib is used by the tests to read our output back.

Layout: one bufferView per layer and attribute kind (positions, UVs,
colours, indices) holding all groups of the layer back to back, one per
embedded PNG image; an accessor per group and attribute, one per
(group, material) for indices. Nodes: a root per layer ("world",
"collision", …) with one child node per group ("tile_12", "patch_3");
a root per instanced layer ("ties", …) whose class meshes are written
once and placed by TRS nodes or EXT_mesh_gpu_instancing (see _instanced).
"""
from __future__ import annotations

import json
import os
import struct
from urllib.parse import quote

import numpy as np

from .. import __version__
from .mesh import Indexed, bounds, index_corners
from .png import png_bytes
from .scene import GPU_INSTANCES, Instanced, Scene, trs

FLOAT, UINT32 = 5126, 5125
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963
NEAREST, CLAMP = 9728, 33071
GPU_EXT = "EXT_mesh_gpu_instancing"
GLB_MAGIC, GLB_JSON, GLB_BIN = 0x46546C67, 0x4E4F534A, 0x004E4942


class _Builder:
    def __init__(self):
        self.gltf = {"asset": {"version": "2.0",
                               "generator": f"wadkit {__version__}"},
                     "buffers": [], "bufferViews": [], "accessors": [],
                     "meshes": [], "nodes": [], "scenes": [{"nodes": []}],
                     "scene": 0}
        # the binary buffer in pieces: bytes, or byte views of the arrays
        # themselves (write_glb writes them one by one, never joined)
        self.blobs: list[bytes | memoryview] = []
        self.size = 0
        self.extensions: set[str] = set()

    def view(self, data, target: int | None = None, dtype: str | None = None) -> int:
        """A bufferView of data: bytes, or an array stored as dtype (C order)."""
        if dtype is not None:
            data = memoryview(np.ascontiguousarray(data, dtype)).cast("B")
        pad = -self.size % 4
        if pad:
            self.blobs.append(b"\0" * pad)
            self.size += pad
        v = {"buffer": 0, "byteOffset": self.size, "byteLength": len(data)}
        if target is not None:
            v["target"] = target
        self.blobs.append(data)
        self.size += len(data)
        self.gltf["bufferViews"].append(v)
        return len(self.gltf["bufferViews"]) - 1

    def accessor(self, view: int, offset: int, count: int, kind: str,
                 ctype: int = FLOAT, lo=None, hi=None) -> int:
        a = {"bufferView": view, "byteOffset": offset, "componentType": ctype,
             "count": count, "type": kind}
        if lo is not None:
            a["min"], a["max"] = lo, hi
        self.gltf["accessors"].append(a)
        return len(self.gltf["accessors"]) - 1

    def node(self, node: dict) -> int:
        self.gltf["nodes"].append(node)
        return len(self.gltf["nodes"]) - 1


def _materials(b: _Builder, scene: Scene) -> None:
    used_images = sorted({m.image for m in scene.materials if m.image is not None})
    texture_of: dict[int, int] = {}
    if used_images:
        b.gltf["samplers"] = [{"magFilter": NEAREST, "minFilter": NEAREST,
                               "wrapS": CLAMP, "wrapT": CLAMP}]
        b.gltf["images"], b.gltf["textures"] = [], []
        for i in used_images:
            v = b.view(png_bytes(scene.images[i]))
            b.gltf["images"].append({"name": f"page{i:02d}", "bufferView": v,
                                     "mimeType": "image/png"})
            b.gltf["textures"].append({"sampler": 0, "source": len(texture_of)})
            texture_of[i] = len(texture_of)
    out = []
    for m in scene.materials:
        pbr = {"baseColorFactor": [float(c) for c in m.color],
               "metallicFactor": 0.0, "roughnessFactor": 1.0}
        if m.image is not None:
            pbr["baseColorTexture"] = {"index": texture_of[m.image]}
        mat = {"name": m.name, "pbrMetallicRoughness": pbr,
               "alphaMode": m.alpha, "doubleSided": m.double_sided,
               # vertex colours carry the level's baked lighting
               "extensions": {"KHR_materials_unlit": {}}}
        if m.alpha == "MASK":
            mat["alphaCutoff"] = 0.5
        out.append(mat)
    if out:
        b.gltf["materials"] = out
        b.gltf["extensionsUsed"] = ["KHR_materials_unlit"]


def _meshes(b: _Builder, prefix: str, ix: Indexed) -> list[int]:
    """One glTF mesh per group of ix (named f"{prefix}_{group}"), all in
    shared bufferViews; returns their indices."""
    pos_v = b.view(ix.positions, ARRAY_BUFFER, "<f4")
    uv_v = b.view(ix.uv, ARRAY_BUFFER, "<f4") if ix.uv is not None else None
    col_v = b.view(ix.color, ARRAY_BUFFER, "<f4") if ix.color is not None else None
    parts = [p.indices for g in ix.groups for p in g.parts]
    idx_v = b.view(np.concatenate(parts), ELEMENT_ARRAY_BUFFER, "<u4")
    out, idx_off = [], 0
    for g in ix.groups:
        pos = ix.positions[g.start:g.start + g.count]
        attrs = {"POSITION": b.accessor(pos_v, g.start * 12, g.count, "VEC3",
                                        FLOAT, *bounds(pos))}
        if uv_v is not None:
            attrs["TEXCOORD_0"] = b.accessor(uv_v, g.start * 8, g.count, "VEC2")
        if col_v is not None:
            attrs["COLOR_0"] = b.accessor(col_v, g.start * 16, g.count, "VEC4")
        prims = []
        for p in g.parts:
            n = p.indices.size
            acc = b.accessor(idx_v, idx_off, n, "SCALAR", UINT32)
            idx_off += n * 4
            prims.append({"attributes": attrs, "indices": acc,
                          "material": p.material, "mode": 4})
        b.gltf["meshes"].append({"name": f"{prefix}_{g.id}", "primitives": prims})
        out.append(len(b.gltf["meshes"]) - 1)
    return out


def _layer(b: _Builder, name: str, prefix: str, ix: Indexed) -> int:
    children = [b.node({"name": f"{prefix}_{g.id}", "mesh": m})
                for g, m in zip(ix.groups, _meshes(b, prefix, ix))]
    return b.node({"name": name, "children": children})


def _trs_node(name: str, t, q, s, mesh: int | None = None) -> dict:
    node = {"name": name, "translation": [float(v) for v in t],
            "rotation": [float(v) for v in q], "scale": [float(v) for v in s]}
    if mesh is not None:
        node["mesh"] = mesh
    return node


def _instanced(b: _Builder, inst: Instanced) -> int | None:
    """A root node for the instances: per class with a mesh one glTF mesh;
    instances as one node each sharing it ("nodes"), or one node per class
    carrying EXT_mesh_gpu_instancing ("gpu"). Instances of classes without
    a mesh, and (with gpu) those whose matrix is no TRS, are nodes of their
    own; a non-TRS matrix is baked into a mesh copy (glTF nodes must be
    TRS)."""
    n = len(inst.instance_class)
    if not n:
        return None
    used = sorted(set(inst.instance_class.tolist()))
    mesh_of: dict[int, int] = {}
    for ci in used:
        name, m = inst.classes[ci]
        if m is not None and len(m["triangles"]):
            (mesh_of[ci],) = _meshes(b, name, index_corners(dict(m, group=np.zeros(
                len(m["triangles"]), np.int64))))
            b.gltf["meshes"][mesh_of[ci]]["name"] = name
    t, q, sc, ok = trs(inst.matrices)
    gpu = inst.mode == "gpu" or (inst.mode == "auto" and n > GPU_INSTANCES)
    children = []
    for i in np.flatnonzero(~ok).tolist():       # baked copies
        ci = int(inst.instance_class[i])
        name, m = inst.classes[ci]
        if ci in mesh_of:
            baked = Instanced("", [(name, m)], np.zeros(1, np.int64),
                              inst.matrices[i:i + 1], [inst.names[i]]).flattened().mesh
            (mi,) = _meshes(b, inst.names[i], index_corners(dict(baked, group=np.zeros(
                len(baked["triangles"]), np.int64))))
            children.append(b.node({"name": inst.names[i], "mesh": mi}))
        else:
            children.append(b.node({"name": inst.names[i],
                                    "translation": [float(v) for v in t[i]]}))
    for ci in used:
        rows = np.flatnonzero((inst.instance_class == ci) & ok)
        if not len(rows):
            continue
        if gpu and ci in mesh_of:
            attrs = {}
            for key, arr, kind in (("TRANSLATION", t, "VEC3"), ("ROTATION", q, "VEC4"),
                                   ("SCALE", sc, "VEC3")):
                v = b.view(arr[rows], dtype="<f4")
                attrs[key] = b.accessor(v, 0, len(rows), kind)
            children.append(b.node({"name": inst.classes[ci][0], "mesh": mesh_of[ci],
                                    "extensions": {GPU_EXT: {"attributes": attrs}}}))
            b.extensions.add(GPU_EXT)
            continue
        for i in rows.tolist():
            children.append(b.node(_trs_node(inst.names[i], t[i], q[i], sc[i],
                                             mesh_of.get(ci))))
    return b.node({"name": inst.name, "children": children})


def build(scene: Scene) -> tuple[dict, bytes]:
    """The glTF JSON (as a dict) and its binary buffer."""
    gltf, blobs = _build(scene)
    return gltf, b"".join(blobs)


def _build(scene: Scene) -> tuple[dict, list[bytes | memoryview]]:
    """The glTF JSON and its binary buffer in pieces (padded to 4 bytes)."""
    b = _Builder()
    _materials(b, scene)
    for layer in scene.layers:
        if len(layer.mesh["triangles"]) == 0:
            continue
        ix = index_corners(layer.mesh)
        b.gltf["scenes"][0]["nodes"].append(
            _layer(b, layer.name, layer.prefix, ix))
    for inst in scene.instanced:
        root = _instanced(b, inst)
        if root is not None:
            b.gltf["scenes"][0]["nodes"].append(root)
    if b.extensions:
        b.gltf["extensionsUsed"] = sorted(set(b.gltf.get("extensionsUsed", []))
                                          | b.extensions)
    if b.size % 4:
        b.blobs.append(b"\0" * (-b.size % 4))
        b.size += len(b.blobs[-1])
    b.gltf["buffers"].append({"byteLength": b.size})
    for key in ("bufferViews", "accessors", "meshes"):
        if not b.gltf[key]:
            del b.gltf[key]
    if not b.size:
        del b.gltf["buffers"]
    return b.gltf, b.blobs


def _glb_pieces(scene: Scene) -> list[bytes | memoryview]:
    """A binary glTF in pieces: header, JSON chunk (space-padded), BIN
    chunk header, the binary buffer's pieces."""
    gltf, blobs = _build(scene)
    size = sum(len(p) for p in blobs)
    js = json.dumps(gltf, separators=(",", ":"), allow_nan=False).encode("utf-8")
    js += b" " * (-len(js) % 4)
    out = [struct.pack("<II", len(js), GLB_JSON), js]
    if size:
        out += [struct.pack("<II", size, GLB_BIN), *blobs]
    total = 12 + sum(len(p) for p in out)
    return [struct.pack("<III", GLB_MAGIC, 2, total), *out]


def glb_bytes(scene: Scene) -> bytes:
    """A binary glTF: header, JSON chunk (space-padded), BIN chunk."""
    return b"".join(_glb_pieces(scene))


def write_glb(scene: Scene, path: str | os.PathLike) -> None:
    """The bytes of glb_bytes, written piece by piece (the arrays' own
    memory, no joined copy of the buffer)."""
    with open(path, "wb") as f:
        f.writelines(_glb_pieces(scene))


def write_gltf(scene: Scene, path: str | os.PathLike) -> None:
    """path.gltf (JSON) and path.bin beside it, referenced by a relative URI."""
    path = os.fspath(path)
    gltf, binary = build(scene)
    bin_path = os.path.splitext(path)[0] + ".bin"
    if binary:
        gltf["buffers"][0]["uri"] = quote(os.path.basename(bin_path))
        with open(bin_path, "wb") as f:
            f.write(binary)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(gltf, f, indent=1, allow_nan=False)
