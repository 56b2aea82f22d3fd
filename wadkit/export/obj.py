"""Scene → Wavefront OBJ + MTL + PNG pages.

One `o` object per group (tile / patch / collision tile / object model),
vertex colours as the common `v x y z r g b` extension (alpha dropped),
`vt` with V flipped (OBJ's origin is bottom-left, glTF's and the games'
top-left). Layers after the first go into the same file, their objects
named "<layer>/<group>". Images are written beside the OBJ as
<stem>_page_NN.png and named in the MTL (map_Kd; map_d for alpha).
"""
from __future__ import annotations

import os

import numpy as np

from .mesh import index_corners
from .png import write_png
from .scene import Scene


def _block(fmt: str, arr: np.ndarray) -> str:
    """Rows of arr formatted by fmt, one line each: a single %-format over
    the flattened array (C speed, unlike a loop over rows)."""
    if len(arr) == 0:
        return ""
    return ((fmt + "\n") * len(arr)) % tuple(arr.ravel().tolist())


def _mtl(scene: Scene, stem: str, outdir: str) -> str:
    lines, written = [], set()
    for m in scene.materials:
        lines += [f"newmtl {m.name}", "Ka 0 0 0",
                  "Kd {:.6g} {:.6g} {:.6g}".format(*m.color[:3]), "illum 1"]
        if m.image is not None:
            png = f"{stem}_page_{m.image:02d}.png"
            if m.image not in written:
                write_png(scene.images[m.image], os.path.join(outdir, png))
                written.add(m.image)
            lines.append(f"map_Kd {png}")
            if m.alpha != "OPAQUE":
                lines.append(f"map_d {png}")
        lines.append("")
    return "\n".join(lines)


def write_obj(scene: Scene, path: str | os.PathLike) -> None:
    """path.obj, path.mtl and the page PNGs beside them."""
    path = os.fspath(path)
    outdir = os.path.dirname(os.path.abspath(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    with open(os.path.join(outdir, stem + ".mtl"), "w", encoding="utf-8") as f:
        f.write(_mtl(scene, stem, outdir))
    names = [m.name for m in scene.materials]
    base = vt_base = 1   # OBJ indices are 1-based and global over the file
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# wadkit export of {scene.source or 'a level'}\n"
                f"mtllib {stem}.mtl\n")
        # OBJ has no instancing: instanced layers are written flattened
        layers = scene.layers + [inst.flattened() for inst in scene.instanced]
        for li, layer in enumerate(layers):
            if len(layer.mesh["triangles"]) == 0:
                continue
            ix = index_corners(layer.mesh)
            n = len(ix.positions)
            rgb = ix.color[:, :3] if ix.color is not None \
                else np.ones((n, 3), np.float32)
            f.write(_block("v %.6f %.6f %.6f %.4f %.4f %.4f",
                           np.hstack([ix.positions, rgb])))
            if ix.uv is not None:
                vt = np.stack([ix.uv[:, 0], 1.0 - ix.uv[:, 1]], axis=1)
                f.write(_block("vt %.6f %.6f", vt))
                face = "f %d/%d %d/%d %d/%d"
            else:
                face = "f %d %d %d"
            label = "" if li == 0 else f"{layer.name}/"
            for g in ix.groups:
                f.write(f"o {label}{layer.prefix}_{g.id}\n")
                for p in g.parts:
                    f.write(f"usemtl {names[p.material]}\n")
                    idx = p.indices.astype(np.int64) + g.start
                    if ix.uv is not None:
                        idx = np.stack([idx + base, idx + vt_base],
                                       axis=2).reshape(-1, 6)
                    else:
                        idx = idx + base
                    f.write(_block(face, idx))
            base += n
            vt_base += n if ix.uv is not None else 0
