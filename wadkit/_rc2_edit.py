"""Editing an RC2 level (issue 17): Level.edit() -> LevelEdit.

A LevelEdit holds pending changes; the level itself never changes.
apply() writes them and returns a new, re-parsed Level (its edit_report
says what was done); save() / to_bytes() of that level give the file.

    ed = lvl.edit()
    t = lvl.terrain(0)
    pos = t["positions"].copy(); pos[10] += (0, 0, 2)
    ed.set_terrain(positions=pos)                 # LOD 0 layout of terrain(0)
    i = ed.add("tie", lvl.ties.class_id[0], m, like=0)   # a copy of tie 0 at m
    ed.move("moby", 3, (10.0, 2.0, 5.0))           # a translation, or a 4x4
    ed.move_many("tie", [4, 9], matrices)          # (n, 4, 4) at once
    ed.delete("shrub", 7)
    ed.set_collision(positions, triangles, tags)  # the whole collision mesh
    ed.set_settings(fog_colour=(90, 100, 120), death_height=-80.0)
    new = ed.apply()
    new.save("LEVEL0_EDITED.WAD")

Rules (docs/formats/rc2-writing.md, "Writing a level back" and "Saving a level"):

- Terrain: positions (V, 3), uv (T, 3, 2), color (T, 3, 4) (1.0 = the
  PS2's 0x80), texture (T,) in the layout of terrain(0) — the triangles
  stay. A changed patch is patched in place when its strips can hold the
  edit (its LODs and every other byte kept), else re-encoded by the tfrag
  writer (all three LODs then draw its LOD 0 strips) in its old place, or
  after the last patch when it grew; set_patch() gives a patch new
  triangles. Untouched patches keep their bytes. A patch that breaks a
  limit (255 vertices or triangles, 0x148 quadwords of VU memory, s16
  around its origin, the region's free bytes) is a LimitError naming it:
  patches are never split.
- Instances: numbers are the source level's (ties 0..n-1); added ones get
  the numbers after them; a deleted one keeps its number until apply().
  The new level holds the kept instances in their order, then the added
  ones; edit_report["index"][kind] maps every number to the new level's
  index (-1: deleted). A record keeps every field of the instance it
  copies (colours, lights, draw distances); an added copy gets a new uid
  (ties, mobys). Classes must be in the core class table. Tie and shrub
  class lists, tie ambient colours (kept for copies of the same class) and
  instance groups follow the instances.
- Collision: the whole mesh, written by wadkit.rc2.build_collision.
- Settings: fields of lvl.settings by name (not the chunk planes).

Errors: arguments of the wrong shape, dtype or range raise ValueError
naming the argument; what the format or the game cannot hold raises
wadkit.LimitError naming the patch, instance or block. An edit call that
raises changes nothing.
"""
from __future__ import annotations

import numpy as np

from . import _core
from ._args import array

KINDS = ("tie", "shrub", "moby")
_STATUS = ("kept", "in_place", "reencoded", "moved")


def _array(value, dtype, tail, name, integer=False):
    """value checked and converted (wadkit._args.array; finite values)."""
    return array(value, dtype, tail, name, integer=integer, finite=True)


def _kind(kind):
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    return kind


def _matrix(m, name):
    """A 4x4 matrix for column vectors, or a translation (3,)."""
    a = np.asarray(m, dtype=np.float64)
    if a.shape not in ((4, 4), (3,)) or not np.isfinite(a).all():
        raise ValueError(f"{name} must be a finite 4x4 matrix or a translation "
                         f"(x, y, z), not shape {a.shape}")
    return a


class LevelEdit:
    """Pending edits of an RC2 level (see the module docstring)."""

    def __init__(self, level):
        self._level = level
        self._terrain: dict[str, np.ndarray] = {}
        self._meshes: dict[int, tuple] = {}
        self._collision = None
        self._settings: dict[str, tuple] = {}
        self._inst: dict[str, dict] = {}

    # ---- terrain ---------------------------------------------------------

    def set_terrain(self, positions=None, uv=None, color=None, texture=None) -> None:
        """New LOD 0 terrain in the layout of level.terrain(0): positions
        (V, 3) file units (Z up), uv (T, 3, 2), color (T, 3, 4), texture
        (T,); None keeps that part. The triangles stay."""
        t = self._level.terrain(0)
        new = {}
        for name, value, dtype, tail, ref in (
                ("positions", positions, np.float32, (3,), "positions"),
                ("uv", uv, np.float32, (3, 2), "uv"),
                ("color", color, np.float32, (3, 4), "color"),
                ("texture", texture, np.int32, (), "texture")):
            if value is None:
                continue
            a = _array(value, dtype, tail, name, integer=name == "texture")
            if len(a) != len(t[ref]):
                raise ValueError(f"{name} has {len(a)} rows, terrain(0) has {len(t[ref])}")
            new[name] = a
        if "texture" in new:
            n = self._level._tfrag_texture_count()
            bad = (new["texture"] < 0) | (new["texture"] >= n)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise ValueError(f"texture[{k}] = {new['texture'][k]}: the level has "
                                 f"{n} tfrag textures")
        self._terrain.update(new)

    def set_patch(self, patch: int, positions, triangles, uv, color, texture) -> None:
        """A whole new mesh for one patch: positions (n, 3), triangles (t, 3)
        counter-clockwise, uv (t, 3, 2), color (t, 3, 4), texture (t,). The
        patch is re-encoded (LimitError when it breaks a limit)."""
        n = len(self._level.patches)
        if isinstance(patch, bool) or not isinstance(patch, (int, np.integer)) \
                or not 0 <= patch < n:
            raise ValueError(f"patch must be an index 0..{n - 1}, not {patch!r}")
        pos = _array(positions, np.float32, (3,), "positions")
        tri = _array(triangles, np.uint32, (3,), "triangles", integer=True)
        uvs = _array(uv, np.float32, (3, 2), "uv")
        col = _array(color, np.float32, (3, 4), "color")
        tex = _array(texture, np.int32, (), "texture", integer=True)
        for name, a in (("uv", uvs), ("color", col), ("texture", tex)):
            if len(a) != len(tri):
                raise ValueError(f"{name} has {len(a)} rows, triangles {len(tri)}")
        if tri.size and tri.max() >= len(pos):
            raise ValueError(f"triangles name vertex {tri.max()}, positions has {len(pos)}")
        self._meshes[int(patch)] = (int(patch), pos, tri, uvs, col, tex)

    # ---- instances -------------------------------------------------------

    def _list(self, kind) -> dict:
        kind = _kind(kind)
        if kind not in self._inst:
            inst = getattr(self._level, kind + "s")
            n = len(inst)
            self._inst[kind] = {
                "source": np.arange(n, dtype=np.int32),
                "class_id": np.array(inst.class_id, dtype=np.int32),
                "matrix": np.array(inst.matrix, dtype=np.float32).reshape(n, 4, 4),
                "deleted": np.zeros(n, dtype=bool)}
        return self._inst[kind]

    def _index(self, kind, index) -> int:
        lst = self._list(kind)
        n = len(lst["source"])
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) \
                or not 0 <= index < n:
            raise ValueError(f"{kind} index must be 0..{n - 1}, not {index!r}")
        if lst["deleted"][index]:
            raise ValueError(f"{kind} {index} is deleted")
        return int(index)

    def _class(self, kind, class_id) -> int:
        ids = getattr(self._level, kind + "_classes").ids
        if isinstance(class_id, bool) or not isinstance(class_id, (int, np.integer)) \
                or int(class_id) not in set(ids.tolist()):
            raise ValueError(f"class_id {class_id!r} is not in the level's {kind} "
                             f"class table")
        return int(class_id)

    def instance_count(self, kind) -> int:
        """Instances in the edit's numbering (deleted ones still count)."""
        return len(self._list(kind)["source"])

    def move(self, kind: str, index: int, matrix) -> None:
        """Place instance `index` at `matrix` (4x4 for column vectors, as
        lvl.ties.matrix gives it) or move it to a translation (x, y, z)."""
        i = self._index(kind, index)
        m = _matrix(matrix, "matrix")
        lst = self._list(kind)
        if m.shape == (3,):
            lst["matrix"][i, :3, 3] = m
        else:
            lst["matrix"][i] = m

    def move_many(self, kind: str, indices, matrices) -> None:
        """move() of many instances at once: indices (n,) distinct numbers
        of the kind (none deleted), matrices (n, 4, 4) for column vectors;
        stored as float32, as move() stores them."""
        lst = self._list(kind)
        n = len(lst["source"])
        if np.asarray(indices).dtype.kind == "b":
            raise ValueError("indices must be instance numbers, not bools")
        idx = array(indices, np.int64, (), "indices", integer=True, lo=0, hi=n - 1)
        mat = _array(matrices, np.float32, (4, 4), "matrices")
        if len(mat) != len(idx):
            raise ValueError(f"indices has {len(idx)} rows, matrices {len(mat)}")
        if len(np.unique(idx)) != len(idx):
            raise ValueError("indices must be distinct")
        gone = lst["deleted"][idx]
        if gone.any():
            raise ValueError(f"{kind} {int(idx[np.flatnonzero(gone)[0]])} is deleted")
        lst["matrix"][idx] = mat

    def set_class(self, kind: str, index: int, class_id: int) -> None:
        """Give instance `index` another class of the core table."""
        i = self._index(kind, index)
        self._list(kind)["class_id"][i] = self._class(kind, class_id)

    def add(self, kind: str, class_id: int, matrix, like: int | None = None) -> int:
        """A new instance of class_id at matrix (4x4, or a translation with
        like's rotation); its other fields are copied from instance `like`
        (default: the first of that class, else the first of the kind, else
        Wrench's defaults). Returns its number."""
        lst = self._list(kind)
        cls = self._class(kind, class_id)
        m = _matrix(matrix, "matrix")
        if like is None:
            inst = getattr(self._level, kind + "s")
            same = np.flatnonzero(inst.class_id == cls)
            src = int(same[0]) if len(same) else (0 if len(inst) else -1)
            full = (np.array(inst.matrix[src], np.float32) if src >= 0
                    else np.eye(4, dtype=np.float32))
        else:
            i = self._index(kind, like)
            src, full = int(lst["source"][i]), lst["matrix"][i].copy()
        if m.shape == (3,):
            full[:3, 3] = m
        else:
            full = m.astype(np.float32)
        lst["source"] = np.append(lst["source"], np.int32(src))
        lst["class_id"] = np.append(lst["class_id"], np.int32(cls))
        lst["matrix"] = np.concatenate([lst["matrix"], full[None]])
        lst["deleted"] = np.append(lst["deleted"], False)
        return len(lst["source"]) - 1

    def delete(self, kind: str, index: int) -> None:
        """Remove instance `index` (its number stays until apply())."""
        i = self._index(kind, index)
        self._list(kind)["deleted"][i] = True

    def set_instances(self, kind: str, source, class_id, matrix) -> None:
        """The whole new list of one kind, in the new level's order: source
        (n,) the source instance each copies (-1: Wrench's defaults),
        class_id (n,), matrix (n, 4, 4). Replaces earlier edits of the kind."""
        kind = _kind(kind)
        n_src = len(getattr(self._level, kind + "s"))
        src = _array(source, np.int32, (), "source", integer=True)
        cls = _array(class_id, np.int32, (), "class_id", integer=True)
        mat = _array(matrix, np.float32, (4, 4), "matrix")
        if not len(src) == len(cls) == len(mat):
            raise ValueError(f"source, class_id and matrix have {len(src)}, "
                             f"{len(cls)} and {len(mat)} rows")
        bad = (src < -1) | (src >= n_src)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise ValueError(f"source[{k}] = {src[k]}: the level has {n_src} {kind}s")
        known = set(getattr(self._level, kind + "_classes").ids.tolist())
        for k, c in enumerate(cls.tolist()):
            if c not in known:
                raise ValueError(f"class_id[{k}] = {c} is not in the level's {kind} "
                                 f"class table")
        self._inst[kind] = {"source": src, "class_id": cls, "matrix": mat,
                            "deleted": np.zeros(len(src), bool), "whole": True}

    # ---- collision and settings -------------------------------------------

    def set_collision(self, positions, triangles, tags, quads=None, quad_tags=None) -> None:
        """The whole collision mesh (as wadkit.rc2.build_collision takes it:
        metres, Z up; triangles (T, 3) and quads (Q, 4) counter-clockwise;
        a tag per face)."""
        pos = _array(positions, np.float32, (3,), "positions")
        tri = _array(triangles, np.uint32, (3,), "triangles", integer=True)
        tag = _array(tags, np.uint8, (), "tags", integer=True)
        q = _array(np.zeros((0, 4), np.uint32) if quads is None else quads,
                   np.uint32, (4,), "quads", integer=True)
        qt = _array(np.zeros(0, np.uint8) if quad_tags is None else quad_tags,
                    np.uint8, (), "quad_tags", integer=True)
        if len(tag) != len(tri) or len(qt) != len(q):
            raise ValueError("one tag per triangle and one quad_tag per quad")
        for name, a in (("triangles", tri), ("quads", q)):
            if a.size and a.max() >= len(pos):
                raise ValueError(f"{name} name vertex {a.max()}, positions has {len(pos)}")
        self._collision = (pos, tri, tag, q, qt)

    def set_settings(self, **fields) -> None:
        """Level settings fields by name (see lvl.settings): colours as three
        integers, distances as numbers."""
        s = self._level.settings
        if s is None:
            raise ValueError("the level has no settings block")
        new = {}
        for name, value in fields.items():
            if name not in s or name in ("chunk_plane_records", "chunk_plane_count",
                                         "core_sounds_count"):
                raise ValueError(f"{name!r} is not a settings field wadkit writes")
            old = s[name]
            vals = tuple(value) if isinstance(old, tuple) else (value,)
            n = len(old) if isinstance(old, tuple) else 1
            if len(vals) != n:
                raise ValueError(f"{name} takes {n} values, not {len(vals)}")
            for v in vals:
                if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                        or not np.isfinite(v):
                    raise ValueError(f"{name} must be finite numbers, not {value!r}")
                if isinstance(old if n == 1 else old[0], int) and float(v) != int(v):
                    raise ValueError(f"{name} must be integers, not {value!r}")
            new[name] = tuple(float(v) for v in vals)
        self._settings.update(new)

    # ---- writing ---------------------------------------------------------

    def _instances_arg(self) -> tuple[dict, dict]:
        out, index = {}, {}
        for kind, lst in self._inst.items():
            keep = ~lst["deleted"]
            out[kind] = (lst["source"][keep], lst["class_id"][keep], lst["matrix"][keep])
            idx = np.full(len(keep), -1, np.int64)
            idx[keep] = np.arange(int(keep.sum()))
            index[kind] = idx
        return out, index

    def _gameplay(self, plain: bytes, inst: dict) -> tuple[bytes, dict]:
        c = self._level._classes
        ids = {k: c[k]["id"] for k in KINDS}
        settings = list(self._settings.items())
        return _core.rc2_gameplay_write(plain, ids, inst, settings)

    def apply(self):
        """Write the edits; the new Level (its edit_report says what was
        written). Nothing is written to disk."""
        from .rc2 import Level, build_collision
        lvl = self._level
        report: dict = {}
        tfrags = None
        if self._terrain or self._meshes:
            t = self._terrain
            # the level's tfrags block, its parse kept on lvl._lvl for the
            # next edits of the same level (C: wk_rc2_level_tfrags_edit)
            tfrags, status = _core.rc2_level_tfrags_edit(
                lvl._lvl, t.get("positions"), t.get("uv"), t.get("color"),
                t.get("texture"), list(self._meshes.values()))
            report["patches"] = {name: np.flatnonzero(status == k).tolist()
                                 for k, name in enumerate(_STATUS) if k}
        collision = None
        if self._collision is not None:
            collision = build_collision(*self._collision)
        gameplay = gameplay_pal = None
        if self._inst or self._settings:
            inst, report["index"] = self._instances_arg()
            gameplay, report["gameplay"] = self._gameplay(lvl.gameplay, inst)
            if "gameplay_pal" in lvl.extents and \
                    lvl.sectors["gameplay_pal"] != lvl.sectors["gameplay"]:
                pal = lvl._lvl.decompress("gameplay_pal", lvl.max_size)
                self._check_pal(pal)
                gameplay_pal, _ = self._gameplay(pal, inst)
        data, report["streams"] = _core.rc2_level_rewrite(lvl._lvl, tfrags, collision,
                                                          gameplay, gameplay_pal)
        # the rewrite parsed data again and decoded every stream: checked
        new = Level(_core.Rc2Level(data), None, lvl.max_size, in_memory=True, checked=True)
        new.edit_report = report
        return new

    def _check_pal(self, pal: bytes) -> None:
        """The PAL gameplay gets the same edit only when its instances and
        settings are the NTSC one's."""
        from ._core import LimitError
        c = self._level._classes
        mine = self._level._gameplay
        other = _core.rc2_gameplay_parse(pal, c["tie"]["id"], c["shrub"]["id"],
                                         c["moby"]["id"])
        for key in ("settings", "tie", "shrub", "moby"):
            a, b = mine[key], other[key]
            same = (a is None) == (b is None) and (
                a is None or (a == b if key == "settings" else
                              all(np.array_equal(a[f], b[f]) for f in a)))
            if not same:
                raise LimitError(f"the PAL gameplay's {key} differ from the NTSC "
                                 "gameplay's; wadkit edits both only when they agree")
