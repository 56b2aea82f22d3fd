"""Reading triangle meshes from OBJ and glTF 2.0 (.glb / .gltf), for
`wadkit import-mesh`: the same dict the readers give (positions, triangles,
per-corner uv and color) plus a material name per triangle.

    mesh = read_mesh("edit.glb")
    mesh["positions"] (V,3) f32, mesh["triangles"] (T,3) u32,
    mesh["uv"] (T,3,2) f32 or None, mesh["color"] (T,3,4) f32 or None,
    mesh["material"] (T,) i32 into mesh["material_names"]

glTF: every mesh node of the default scene, with its world transform
(matrix or TRS) applied; triangle primitives only (mode 4). OBJ: polygons
are fanned into triangles; `v x y z r g b` colours are read when present;
vt's V is flipped back to the top-left origin of glTF and the games.
"""
from __future__ import annotations

import json
import os
import struct
from urllib.parse import unquote

import numpy as np

_DTYPES = {5120: "i1", 5121: "u1", 5122: "<i2", 5123: "<u2", 5125: "<u4",
           5126: "<f4"}
_NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
_NORM = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}


class MeshError(ValueError):
    """A mesh file wadkit cannot read (names the file and what)."""


def read_mesh(path: str | os.PathLike, *, exclude: tuple[str, ...] = (),
              only: str | None = None) -> dict:
    """exclude: layers to leave out, only: the one layer to read, by the
    names wadkit's exporters give them (glTF root nodes "world",
    "collision", "objects"; OBJ objects "collision/…", "objects/…").
    only falls back to the whole file when it has no such layer."""
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext == ".obj":
        return read_obj(path, exclude, only)
    if ext in (".glb", ".gltf"):
        return read_gltf(path, exclude, only)
    raise MeshError(f"{path}: unknown mesh format {ext!r} (.obj, .glb, .gltf)")


# ---------------------------------------------------------------- OBJ

def _floats(lines: list[str], n_min: int, path: str, what: str) -> np.ndarray:
    if not lines:
        return np.zeros((0, n_min), np.float32)
    rows = [ln.split()[1:] for ln in lines]
    width = min(len(r) for r in rows)
    if width < n_min:
        raise MeshError(f"{path}: a '{what}' line has fewer than {n_min} numbers")
    try:
        return np.array([r[:width] for r in rows], dtype=np.float32)
    except ValueError as exc:
        raise MeshError(f"{path}: bad number in a '{what}' line ({exc})") from None


def _obj_layer(name: str) -> str:
    return name.split("/", 1)[0] if "/" in name else "world"


def read_obj(path: str, exclude: tuple[str, ...] = (), only: str | None = None) -> dict:
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [ln.strip() for ln in f]
    layers = {_obj_layer(ln[2:].strip()) for ln in lines if ln.startswith("o ")}
    if only is not None and only not in layers:
        only = None
    keep = True
    v = _floats([ln for ln in lines if ln.startswith("v ")], 3, path, "v")
    vt = _floats([ln for ln in lines if ln.startswith("vt ")], 2, path, "vt")
    names: list[str] = []
    name_id: dict[str, int] = {}
    cur = -1
    corners: list[list[int]] = []      # per triangle: 3 × (v, vt)
    mats: list[int] = []
    for ln in lines:
        if ln.startswith("o "):
            layer = _obj_layer(ln[2:].strip())
            keep = layer not in exclude and (only is None or layer == only)
        elif ln.startswith("usemtl"):
            name = ln[6:].strip() or "default"
            cur = name_id.setdefault(name, len(name_id))
            if cur == len(names):
                names.append(name)
        elif ln.startswith("f ") and keep:
            refs = []
            for corner in ln.split()[1:]:
                parts = corner.split("/")
                try:
                    vi = int(parts[0])
                    ti = int(parts[1]) if len(parts) > 1 and parts[1] else 0
                except ValueError:
                    raise MeshError(f"{path}: bad face corner {corner!r}") from None
                refs.append((vi + len(v) + 1 if vi < 0 else vi,
                             ti + len(vt) + 1 if ti < 0 else ti))
            for k in range(1, len(refs) - 1):        # fan
                corners.append([*refs[0], *refs[k], *refs[k + 1]])
                mats.append(cur)
    if cur == -1 and mats:
        names.append("default")
    c = np.array(corners, dtype=np.int64).reshape(-1, 3, 2)
    v_idx, t_idx = c[..., 0] - 1, c[..., 1] - 1
    if len(c) and (v_idx.min() < 0 or v_idx.max() >= len(v)):
        raise MeshError(f"{path}: a face uses a vertex that does not exist")
    has_uv = len(c) > 0 and bool((t_idx >= 0).all())
    if has_uv and t_idx.max() >= len(vt):
        raise MeshError(f"{path}: a face uses a texture coordinate that does not exist")
    uv = None
    if has_uv:
        uv = vt[t_idx][..., :2].copy()
        uv[..., 1] = 1.0 - uv[..., 1]
    color = None
    if v.shape[1] >= 6:
        color = np.concatenate([v[v_idx][..., 3:6],
                                np.ones(v_idx.shape + (1,), np.float32)], axis=2)
    mat = np.array(mats, dtype=np.int32)
    return {"positions": np.ascontiguousarray(v[:, :3]),
            "triangles": v_idx.astype(np.uint32), "uv": uv, "color": color,
            "material": np.where(mat < 0, 0, mat).astype(np.int32),
            "material_names": names}


# ---------------------------------------------------------------- glTF

def _load_gltf(path: str) -> tuple[dict, list[bytes]]:
    with open(path, "rb") as f:
        data = f.read()
    glb_bin = None
    if data[:4] == b"glTF":
        if len(data) < 20:
            raise MeshError(f"{path}: GLB shorter than its header")
        _, version, length = struct.unpack_from("<III", data, 0)
        jlen, jtype = struct.unpack_from("<II", data, 12)
        if version != 2 or jtype != 0x4E4F534A or 20 + jlen > len(data):
            raise MeshError(f"{path}: not a glTF 2.0 binary (version {version})")
        gltf = json.loads(data[20:20 + jlen])
        pos = 20 + jlen
        if pos + 8 <= len(data):
            blen, _ = struct.unpack_from("<II", data, pos)
            glb_bin = data[pos + 8:pos + 8 + blen]
    else:
        gltf = json.loads(data)
    buffers = []
    for i, b in enumerate(gltf.get("buffers", [])):
        if "uri" not in b:
            if glb_bin is None:
                raise MeshError(f"{path}: buffer {i} has no data")
            buffers.append(glb_bin)
        elif b["uri"].startswith("data:"):
            import base64
            buffers.append(base64.b64decode(b["uri"].split(",", 1)[1]))
        else:
            with open(os.path.join(os.path.dirname(path), unquote(b["uri"])), "rb") as f:
                buffers.append(f.read())
    return gltf, buffers


def _accessor(gltf, buffers, i, path) -> np.ndarray:
    a = gltf["accessors"][i]
    n = _NCOMP[a["type"]]
    dt = np.dtype(_DTYPES[a["componentType"]])
    count = a["count"]
    if "bufferView" not in a:
        return np.zeros((count, n), np.float32)
    v = gltf["bufferViews"][a["bufferView"]]
    buf = buffers[v["buffer"]]
    start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    stride = v.get("byteStride") or dt.itemsize * n
    end = start + stride * (count - 1) + dt.itemsize * n if count else start
    if end > len(buf) or end > v.get("byteOffset", 0) + v["byteLength"]:
        raise MeshError(f"{path}: accessor {i} runs past its buffer")
    raw = np.frombuffer(buf, np.uint8, end - start, start)
    if stride == dt.itemsize * n:
        arr = raw.view(dt).reshape(count, n)
    else:
        idx = (np.arange(count)[:, None] * stride
               + np.arange(dt.itemsize * n)[None, :])
        arr = raw[idx].copy().view(dt).reshape(count, n)
    if a.get("normalized") and a["componentType"] in _NORM:
        return arr.astype(np.float32) / _NORM[a["componentType"]]
    return arr


def _matrix(node) -> np.ndarray:
    if "matrix" in node:
        return np.array(node["matrix"], np.float64).reshape(4, 4).T
    t = node.get("translation", [0, 0, 0])
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    s = node.get("scale", [1, 1, 1])
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r * np.array(s)[None, :]
    m[:3, 3] = t
    return m


def read_gltf(path: str, exclude: tuple[str, ...] = (),
              only: str | None = None) -> dict:
    try:
        gltf, buffers = _load_gltf(path)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MeshError(f"{path}: not glTF JSON ({exc})") from None
    names = [m.get("name", f"material{i}") for i, m in
             enumerate(gltf.get("materials", []))] or ["default"]
    pos, tris, uvs, cols, mats = [], [], [], [], []
    base = 0
    nodes = gltf.get("nodes", [])
    scene = gltf.get("scenes", [{"nodes": list(range(len(nodes)))}])[gltf.get("scene", 0)]
    roots = scene.get("nodes", [])
    root_names = [nodes[r].get("name") for r in roots]
    if only is not None and only in root_names:
        roots = [r for r, n in zip(roots, root_names) if n == only]
    roots = [r for r in roots if nodes[r].get("name") not in exclude]
    stack = [(n, np.eye(4)) for n in roots][::-1]
    any_uv = any_col = False
    while stack:
        ni, parent = stack.pop()
        node = nodes[ni]
        world = parent @ _matrix(node)
        stack += [(c, world) for c in node.get("children", [])][::-1]
        if "mesh" not in node:
            continue
        for prim in gltf["meshes"][node["mesh"]]["primitives"]:
            if prim.get("mode", 4) != 4:
                continue
            at = prim["attributes"]
            p = _accessor(gltf, buffers, at["POSITION"], path).astype(np.float64)
            p = p @ world[:3, :3].T + world[:3, 3]
            if "indices" in prim:
                idx = _accessor(gltf, buffers, prim["indices"], path).astype(np.int64)
            else:
                idx = np.arange(len(p))
            idx = idx.reshape(-1, 3)
            if len(idx) and idx.max() >= len(p):
                raise MeshError(f"{path}: an index is past its primitive's vertices")
            if np.linalg.det(world[:3, :3]) < 0:   # a mirror flips winding
                idx = idx[:, [0, 2, 1]]
            t = len(idx)
            uv = _accessor(gltf, buffers, at["TEXCOORD_0"], path)[idx] \
                if "TEXCOORD_0" in at else None
            col = None
            if "COLOR_0" in at:
                c = _accessor(gltf, buffers, at["COLOR_0"], path).astype(np.float32)
                if c.shape[1] == 3:
                    c = np.concatenate([c, np.ones((len(c), 1), np.float32)], 1)
                col = c[idx]
            any_uv |= uv is not None
            any_col |= col is not None
            pos.append(p.astype(np.float32))
            tris.append(idx + base)
            uvs.append(uv if uv is not None else np.zeros((t, 3, 2), np.float32))
            cols.append(col if col is not None else np.ones((t, 3, 4), np.float32))
            mats.append(np.full(t, prim.get("material", 0), np.int32))
            base += len(p)
    if not pos:
        raise MeshError(f"{path}: no triangles in the default scene")
    return {"positions": np.concatenate(pos),
            "triangles": np.concatenate(tris).astype(np.uint32),
            "uv": np.concatenate(uvs).astype(np.float32) if any_uv else None,
            "color": np.concatenate(cols).astype(np.float32) if any_col else None,
            "material": np.concatenate(mats), "material_names": names}
