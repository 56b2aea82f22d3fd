"""The wadkit subcommands beyond `info` and `lz` (in cli.py): convert,
textures, floor, needles, import-mesh, demo; registered on the parser by
cli.build_parser(). JSON outputs are documented in docs/cli.md; keep them
stable."""
from __future__ import annotations

import json
import math
import os
import sys
import traceback
import warnings

import numpy as np

from . import FormatError, WadWarning
from ._convert import (USER_ERRORS, UsageError, cmd_convert, error_line,  # noqa: F401 (cli)
                       warning_line)
from .export.levels import lacks_chunk, missing_chunk
from .detect import open as open_level


def _open(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WadWarning)
        return open_level(path)


def _jsonable(x):
    """NumPy scalars/arrays, tuples, records → plain JSON values."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    return x


def _field(obj, name, index=None):
    """A field of a result record (object, dict or tuple position)."""
    if isinstance(obj, dict):
        if name in obj:
            return obj[name]
    elif hasattr(obj, name):
        return getattr(obj, name)
    if index is not None and isinstance(obj, (tuple, list)):
        return obj[index]
    return None


def _print_json(data) -> None:
    json.dump(_jsonable(data), sys.stdout, indent=2, sort_keys=False)
    print()


def _unsupported(lvl, what):
    kind = type(lvl).__module__.rsplit(".", 1)[-1].upper()
    raise NotImplementedError(f"{what} is not available for {kind} levels "
                              "in this wadkit")


# ------------------------------------------------------------------ info counts

def eng_counts(lvl) -> dict:
    """The ENG counts of `wadkit info` and `wadkit demo` (one definition):
    tiles are the MAP's tiles; tiles_with_faces those whose model has
    render faces (the nodes of a converted world); triangles their faces."""
    faces = np.array([len(m.triangles) for m in lvl.models], dtype=np.int64)
    coll = np.array([int(sum(m.collision_groups)) for m in lvl.models], np.int64)
    model = np.asarray(lvl.tiles.model, dtype=np.int64)
    h, w = np.shape(lvl.zones.grid)
    return {"models": len(faces), "objects": len(lvl.objects),
            "tiles": len(model),
            "tiles_with_faces": int((faces[model] > 0).sum()),
            "grid": [int(w), int(h)],
            "triangles": int(faces[model].sum()),
            "collision_polygons": int(coll[model].sum())}


def _rc2_counts(lvl) -> dict:
    return {"patches": len(lvl.patches),
            "triangles": int(sum(p["tri_count"] for p in lvl.patches)),
            "tfrag_textures": len(lvl.tfrag_textures)}


def _rc2_collision_counts(lvl) -> dict:
    c = lvl.collision()
    return {"collision_faces": int((~c["quad"]).sum()) + len(c["quads"]),
            "collision_octants": len(lvl.collision_octants()["coord"])}


def _rc2_sky_counts(lvl) -> dict:
    return {"sky_shells": len(lvl.sky()["shells"]),
            "chunks": len(lvl.level_chunks)}


def level_counts(lvl) -> dict:
    """The "counts" of `wadkit info` (docs/cli.md). Each part is read on its
    own; a part that does not parse is named under "errors" instead, so
    info still describes a damaged file."""
    out: dict = {}
    errors = []
    parts: list = []
    from .export import _has   # not hasattr(lvl, …): a property may raise
    if _has(lvl, "world_mesh"):
        parts.append(eng_counts)
    if _has(lvl, "pages"):
        parts.append(lambda x: {"pages": len(x.pages),
                                "textures": len(np.asarray(x.textures["page"]))})
    if _has(lvl, "terrain"):
        parts.append(_rc2_counts)
    if _has(lvl, "collision_octants"):
        parts += [_rc2_collision_counts, _rc2_sky_counts]
    if _has(lvl, "tie_classes"):
        parts.append(lambda x: {f"{k}_classes": len(getattr(x, f"{k}_classes"))
                                for k in ("tie", "shrub", "moby")})
        parts.append(lambda x: {k: len(getattr(x, k)) for k in ("ties", "shrubs", "mobys")})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WadWarning)
        for part in parts:
            try:
                out.update(part(lvl))
            except (FormatError, KeyError, ValueError) as exc:
                errors.append(str(exc).strip("'\""))
    if errors:
        out["errors"] = errors
    return out


# ------------------------------------------------------------------ textures

def cmd_textures(args) -> int:
    from . import export
    paths = export.write_textures(_open(args.file), args.outdir)
    print(f"{args.file}: {len(paths)} textures written to {args.outdir}")
    return 0


# ------------------------------------------------------------------ floor

def floor_record(hit) -> dict | None:
    """The stable JSON form of a floor-test result (docs/cli.md)."""
    if hit is None or _field(hit, "height", 0) is None:
        return None
    return {"height": float(_field(hit, "height", 0)),
            "tile": int(_field(hit, "tile", 1)),
            "polygon": int(_field(hit, "polygon", 2)),
            "material": int(_field(hit, "material", 3))}


CANDIDATE_KEYS = ("tile", "polygon", "material", "branch", "skip", "passed",
                  "chosen", "height", "dist", "tolerance", "edges")


def candidate_record(c) -> dict:
    """One polygon the floor test looked at (docs/cli.md); fields the test
    did not reach (e.g. edges of a skipped polygon) are null."""
    rec = {k: _jsonable(_field(c, k)) for k in CANDIDATE_KEYS}
    if rec["tolerance"] is None:
        rec["tolerance"] = _jsonable(_field(c, "tol"))
    return rec


def cmd_floor(args) -> int:
    where = f"position {args.x:g} {args.y:g} {args.z:g}"
    if not all(math.isfinite(v) for v in (args.x, args.y, args.z)):
        raise UsageError(f"{where}: X, Y and Z must be finite numbers")
    lvl = _open(args.file)
    if not hasattr(lvl, "floor"):
        _unsupported(lvl, "the floor test")
    if lacks_chunk(lvl, "MAP"):
        raise missing_chunk("MAP", "the floor test needs the level's tiles")
    try:
        hit = lvl.floor(args.x, args.y, args.z, candidates=bool(args.verbose))
    except FormatError:
        raise
    except ValueError as exc:        # outside the engine's fixed-point range
        raise UsageError(f"{where}: {exc}") from exc
    data: dict = {"position": [args.x, args.y, args.z], "floor": floor_record(hit)}
    if args.verbose:
        cands = _field(hit, "candidates") if hit is not None else None
        data["candidates"] = [candidate_record(c) for c in (cands or [])]
    if args.json:
        _print_json(data)
        return 0
    f = data["floor"]
    if f is None:
        print(f"{args.x} {args.y} {args.z}: no floor")
    else:
        print(f"{args.x} {args.y} {args.z}: floor at y {f['height']:.4f}, "
              f"tile {f['tile']} polygon {f['polygon']} material 0x{f['material']:02x}")
    for c in data.get("candidates", []):
        edges = " ".join(str(e) for e in (c["edges"] or []))
        state = "CHOSEN" if c["chosen"] else "pass" if c["passed"] else \
            f"skip ({c['skip']})" if c["skip"] else "fail"
        print(f"  tile {c['tile']} poly {c['polygon']} mat 0x{c['material'] or 0:02x}: "
              f"height {c['height']} dist {c['dist']} edges [{edges}] "
              f"tol {c['tolerance']} {state}")
    return 0


# ------------------------------------------------------------------ needles

def needle_record(n) -> dict:
    """(tile, polygon, point, height[, corner, fraction, below]) → JSON."""
    def opt(name, i, conv):
        v = _field(n, name, i if isinstance(n, (tuple, list)) and len(n) > i else None)
        return None if v is None else conv(v)
    return {"tile": int(_field(n, "tile", 0)),
            "polygon": int(_field(n, "polygon", 1)),
            "point": [float(v) for v in _field(n, "point", 2)],
            "height": float(_field(n, "height", 3)),
            "corner": opt("corner", 4, int),
            "fraction": opt("fraction", 5, float),
            "below": opt("below", 6, float)}


def cmd_needles(args) -> int:
    lvl = _open(args.file)
    if not hasattr(lvl, "needles"):
        _unsupported(lvl, "the needle scan")
    if lacks_chunk(lvl, "MAP"):
        raise missing_chunk("MAP", "the needle scan needs the level's tiles")
    found = [needle_record(n) for n in lvl.needles()]
    if args.json:
        _print_json({"file": args.file, "count": len(found), "needles": found})
        return 0
    print(f"{args.file}: {len(found)} exposed needle polygons")
    for n in found:
        x, y, z = n["point"]
        print(f"  tile {n['tile']:5d} poly {n['polygon']:3d}  at "
              f"{x:.3f} {y:.3f} {z:.3f}  floor y {n['height']:.3f}")
    return 0


# ------------------------------------------------------------------ import-mesh

def textures_for_materials(names: list[str], textures, default: int) -> np.ndarray:
    """Texture-table index per material name. Names as our exporter writes
    them: "pageNN_bB[_2s]" → the first entry on page NN with blend mode B
    (not a flat colour); "flat_rrggbb_bB" → the first flat entry of that
    colour; anything else → default."""
    import re
    from .export.levels import texture_entries
    entries = texture_entries(textures)
    out = []
    for name in names:
        m = re.match(r"(?:page(\d+)|flat_([0-9a-f]{6}))_b(\d+)", name)
        found = default
        if m:
            blend = int(m.group(3))
            for i, (page, b, flat) in enumerate(entries):
                if b != blend:
                    continue
                if m.group(1) is not None and flat is None and page == int(m.group(1)):
                    found = i
                    break
                if m.group(2) is not None and flat is not None and \
                        bytes(flat).hex() == m.group(2):
                    found = i
                    break
        out.append(found)
    return np.array(out, dtype=np.int32)


def collision_from_mesh(mesh: dict):
    """(positions, triangles, material) for with_geometry(collision=…);
    material from names "coll_XX" (hex, as exported), else 0."""
    mats = []
    for name in mesh["material_names"]:
        try:
            mats.append(int(name[5:7], 16) if name.startswith("coll_") else 0)
        except ValueError:
            mats.append(0)
    return (mesh["positions"], mesh["triangles"],
            np.array(mats, dtype=np.int32)[mesh["material"]])


def cmd_import_mesh(args) -> int:
    from . import eng
    from .meshio import read_mesh
    args.file = args.base
    base = eng.open(args.base)
    if not hasattr(base, "with_geometry"):
        raise NotImplementedError("the ENG write path (with_geometry) is not "
                                  "built into this wadkit yet")
    args.file = args.mesh
    # the render mesh only: not the collision / objects trees of our exports
    mesh = read_mesh(args.mesh, exclude=("collision", "objects"))
    texture = textures_for_materials(mesh["material_names"], base.textures,
                                     args.default_tex)[mesh["material"]]
    t = len(mesh["triangles"])
    uv = mesh["uv"] if mesh["uv"] is not None else np.zeros((t, 3, 2), np.float32)
    coll = None
    if args.coll_mesh:
        args.file = args.coll_mesh
        coll = collision_from_mesh(read_mesh(args.coll_mesh, only="collision"))
    args.file = args.base
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WadWarning)
        new = base.with_geometry(mesh["positions"], mesh["triangles"], uv, texture,
                                 color=mesh["color"], collision=coll,
                                 keep_tiles=args.keep_tiles, zones=args.zones,
                                 default_texture=args.default_tex)
    for w in caught:
        print(f"wadkit: {args.output}: warning: {w.message}", file=sys.stderr)
    args.file = args.output
    new.save(args.output)
    print(f"{args.output}: {t} triangles from {args.mesh} into {args.base}")
    return 0


# ------------------------------------------------------------------ demo

DEMO_POINTS = [(8.5, 12.0, 16.5), (16.5, 12.0, 8.5), (20.5, 12.0, 20.5), (1.5, 12.0, 1.5)]


def _demo_eng(outdir: str, seed: int) -> None:
    from . import eng, export, samples
    wad = os.path.join(outdir, "sample_eng.wad")
    samples.eng_level(seed).save(wad)
    lvl = eng.open(wad)
    glb = os.path.join(outdir, "sample_eng.glb")
    export.export_level(lvl, glb, "glb", collision=True, objects=True)
    pngs = export.write_textures(lvl, os.path.join(outdir, "sample_eng_textures"))
    c = eng_counts(lvl)
    print(f"{wad}: ENG sample level, {os.path.getsize(wad)} bytes, "
          f"{c['triangles']} triangles in {c['tiles']} tiles "
          f"({c['tiles_with_faces']} with faces)")
    print(f"{glb}: glTF with collision and objects; {len(pngs)} pages in "
          f"{os.path.join(outdir, 'sample_eng_textures')}")
    for x, y, z in DEMO_POINTS:
        f = floor_record(lvl.floor(x, y, z))
        where = "no floor" if f is None else \
            f"floor y {f['height']:.3f} (tile {f['tile']}, polygon {f['polygon']})"
        print(f"  floor test at {x} {y} {z}: {where}")


def _demo_rc2(outdir: str, seed: int) -> None:
    from . import export, rc2, samples
    wad = os.path.join(outdir, "sample_rc2.wad")
    with open(wad, "wb") as f:
        f.write(samples.rc2_bytes(seed))
    lvl = rc2.open(wad)
    glb = os.path.join(outdir, "sample_rc2.glb")
    s = export.export_level(lvl, glb, "glb", collision=True, sky=True)
    pngs = export.write_textures(lvl, os.path.join(outdir, "sample_rc2_textures"))
    c = level_counts(lvl)
    print(f"{wad}: RC2 sample level, {os.path.getsize(wad)} bytes, "
          f"{c['triangles']} terrain triangles in {c['patches']} patches, "
          f"{c['ties']} ties, {c['shrubs']} shrubs, {c['mobys']} mobys, "
          f"{c['collision_faces']} collision faces, {c['sky_shells']} sky shells")
    print(f"{glb}: glTF (y-up) with collision and sky, {s['triangles']} triangles; "
          f"{len(pngs)} tfrag textures in {os.path.join(outdir, 'sample_rc2_textures')}")


def cmd_demo(args) -> int:
    """Write both sample levels and convert them (.glb, PNGs, floor test).
    A level whose writers are not in the build is one error line; the other
    is still made; exit 1 if either failed."""
    os.makedirs(args.outdir, exist_ok=True)
    failed = 0
    for step in (_demo_eng, _demo_rc2):
        try:
            step(args.outdir, args.seed)
        except BrokenPipeError:
            raise                    # the reader went away: cli.main's
        except Exception as exc:
            if args.debug:
                traceback.print_exc()
            failed += 1
            print(error_line(args.outdir, exc), file=sys.stderr)
    return 1 if failed else 0


# ------------------------------------------------------------------ register

def register(sub) -> None:
    import argparse
    from .export import FORMATS
    orig_add = sub.add_parser

    def add_parser(name, **kw):
        # --debug also after the command (`wadkit convert … --debug`)
        p = orig_add(name, **kw)
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks for format and limit errors")
        return p
    p = add_parser("convert", help="levels → glTF (.glb/.gltf) or OBJ")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", required=True,
                   help="output file (one input) or folder")
    p.add_argument("--format", choices=FORMATS,
                   help="default: from the output's extension, else glb")
    p.add_argument("--collision", action="store_true",
                   help="add the collision polygons as a 'collision' node tree")
    p.add_argument("--objects", action="store_true",
                   help="add the object (STPC) models side by side (ENG)")
    p.add_argument("--sky", action="store_true",
                   help="add the sky shells as a 'sky' node tree around the level (RC2)")
    p.add_argument("--instancing", choices=("auto", "gpu", "nodes"), default="auto",
                   help="ties, shrubs, mobys (RC2): EXT_mesh_gpu_instancing (gpu), a "
                        "node per instance sharing its class mesh (nodes), or gpu for "
                        "layers of more than 256 instances (auto)")
    p.add_argument("--lod", type=int, default=0, help="terrain and tie LOD (RC2)")
    p.add_argument("-j", "--jobs", type=int, default=0, metavar="N",
                   help="levels converted at once, each in its own process "
                        "(default: one per CPU core; 1: in this process)")
    p.set_defaults(func=cmd_convert, file="")

    p = add_parser("textures", help="every texture page as PNG")
    p.add_argument("file")
    p.add_argument("outdir")
    p.set_defaults(func=cmd_textures)

    p = add_parser("floor", help="ENG engine floor test at a point (file space)")
    p.add_argument("file")
    for axis in "xyz":
        p.add_argument(axis, type=float, metavar=axis.upper())
    p.add_argument("--json", action="store_true")
    p.add_argument("--verbose", action="store_true",
                   help="every candidate polygon with its edge values")
    p.set_defaults(func=cmd_floor)

    p = add_parser("needles", help="ENG exposed-needle scan")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_needles)

    p = add_parser("import-mesh", help="ENG: a mesh (OBJ/glTF) as the "
                       "level geometry of a base WAD, written to a new WAD")
    p.add_argument("base", metavar="BASE.wad")
    p.add_argument("mesh", metavar="MESH", help=".obj, .glb or .gltf (file space)")
    p.add_argument("output", metavar="NEW.wad")
    p.add_argument("--coll-mesh", metavar="C", help="collision mesh "
                   "(default: from the render mesh)")
    p.add_argument("--keep-tiles", action="store_true",
                   help="keep the base level's tiles and add the mesh")
    p.add_argument("--zones", choices=("flat", "keep"), default="flat")
    p.add_argument("--default-tex", type=int, default=0, metavar="N",
                   help="texture-table entry for unknown materials")
    p.set_defaults(func=cmd_import_mesh)

    p = add_parser("demo", help="write the sample levels (no game data) "
                       "and convert them")
    p.add_argument("outdir")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_demo)
