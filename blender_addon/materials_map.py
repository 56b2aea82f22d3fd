"""Blender materials -> what the level stores: texture-table entries for
render faces, ground materials for collision faces. The mapping itself is
the one small function texture_entries(); the rest applies it to faces."""
from __future__ import annotations

import numpy as np

PROP_ENTRIES = "wadkit_textures"                  # set by the import on its materials
PROP_GROUND = "wadkit_collision_material"         # on the import's ground materials
ATTR_MATERIAL = "wadkit_material"


def texture_entries(material) -> list[int]:
    """The texture-table entries a Blender material stands for: those the
    import recorded on the materials it made (one material per page, blend
    mode and flat colour; every entry with that key). Any other material
    stands for none: the export then reports it."""
    if material is None:
        return []
    e = material.get(PROP_ENTRIES)
    try:
        return [int(x) for x in e] if e is not None else []
    except TypeError:
        return []


class FaceTextures:
    """The texture entry of every face of a mesh, from its texture attribute
    and its material: the attribute when the face's material stands for that
    entry (what the import made), else the material's first entry (the
    write path fits the face's UVs to it, or adds an entry)."""

    def __init__(self, resolve=None):
        self._entries: dict[int, np.ndarray] = {}
        self.lut = np.zeros(0, np.int64)        # entry -> a material standing for it (pointer)
        # resolve(mat) -> the entries of a material the import did not make
        # (eng_materials.TextEdits.entries_of), None for the import's own
        self.resolve = resolve

    def entries_of(self, mat) -> np.ndarray:
        k = 0 if mat is None else mat.as_pointer()
        e = self._entries.get(k)
        if e is None:
            got = self.resolve(mat) if self.resolve is not None else None
            e = np.array(sorted(texture_entries(mat) if got is None else got), np.int64)
            self._entries[k] = e
            if len(e):
                if e[-1] >= len(self.lut):
                    grown = np.zeros(int(e[-1]) + 1, np.int64)
                    grown[:len(self.lut)] = self.lut
                    self.lut = grown
                free = self.lut[e] == 0
                self.lut[e[free]] = k
        return e

    def kept(self, d) -> np.ndarray:
        """(F,) bool: the face's material stands for its texture attribute."""
        tex = d.ints.get("wadkit_texture")
        nf = len(d.sizes)
        if tex is None:
            return np.zeros(nf, bool)
        mats = d.materials or [None]
        slots = [self.entries_of(m) for m in mats]
        ptr = np.array([0 if m is None else m.as_pointer() for m in mats], np.int64)
        mi = np.clip(d.material_index, 0, len(slots) - 1)
        lut = self.lut
        inside = (tex >= 0) & (tex < len(lut))
        ok = inside & (lut[np.where(inside, tex, 0)] == ptr[mi])
        if ok.all():
            return ok
        for s in np.unique(mi[~ok]).tolist():       # another material for the same entry
            sel = (mi == s) & ~ok
            ok[sel] = np.isin(tex[sel], slots[s])
        return ok

    def all_kept(self, d) -> bool:
        return bool(self.kept(d).all())

    def per_face(self, d, obj_name: str, notes: list) -> np.ndarray:
        """(F,) texture entries; faces whose material stands for no entry
        keep their attribute's entry (or, without one, get None-marked -1)
        and are named in notes."""
        nf = len(d.sizes)
        tex = d.ints.get("wadkit_texture")
        out = np.full(nf, -1, np.int64) if tex is None else tex.astype(np.int64)
        kept = self.kept(d)
        if kept.all():
            return out
        mats = d.materials or [None]
        mi = np.clip(d.material_index, 0, len(mats) - 1)
        for s in np.unique(mi[~kept]).tolist():
            e = self.entries_of(mats[s])
            sel = (mi == s) & ~kept
            if len(e):
                out[sel] = e[0]
            else:
                label = "no material" if mats[s] is None else f"material {mats[s].name!r}"
                what = ("keep their texture entry" if tex is not None
                        else "get a flat grey entry")
                notes.append(f"object {obj_name!r}: {int(sel.sum())} faces with {label}, "
                             f"which stands for no texture entry of the level; they {what}")
        return out


def collision_material_of(d, obj_name: str | None = None, notes=None) -> np.ndarray:
    """(F,) ground material of every collision face: the wadkit_material
    attribute (set it with Mesh > Set Attribute), else the face's material
    when it is a ground material the import made, else 0. Faces whose
    ground material (slot) says otherwise than the attribute are named in
    notes."""
    nf = len(d.sizes)
    attr = d.ints.get(ATTR_MATERIAL)
    ground = [m.get(PROP_GROUND) if m is not None else None for m in d.materials]
    lut = np.array([g if isinstance(g, int) else -1 for g in ground] + [-1], np.int32)
    slot = np.where(len(ground) > 0, np.clip(d.material_index, 0, max(len(ground) - 1, 0)),
                    len(ground))
    by_mat = lut[slot] if nf else np.zeros(0, np.int32)
    if attr is None:
        return np.where(by_mat >= 0, by_mat, 0).astype(np.int32)
    if notes is not None:
        odd = (by_mat >= 0) & (by_mat != attr)
        if odd.any():
            notes.append(f"collision object {obj_name!r}: {int(odd.sum())} faces have a "
                         "ground material other than their wadkit_material attribute; "
                         "the attribute was used (set it with Mesh > Set Attribute)")
    return attr.astype(np.int32)
