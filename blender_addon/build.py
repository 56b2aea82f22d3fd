"""Transactional creation of Blender data: everything an import makes is
recorded, and removed again if the import fails, so a failed import leaves
no partial objects, meshes, materials or images behind."""
from __future__ import annotations

import bpy

# Blender keeps every bpy.data list sorted by name, compared byte by byte
# with ASCII case folded (BLI_strcasecmp, on signed chars). A new ID is put
# in place by a search that, from the end of the list, walks back over the
# IDs, comparing one in 512 with the new name until that one sorts before
# it, then scans forward from there comparing each: a name larger than all
# the others costs a walk of 512 and a scan of 512 compares, one smaller
# than all a walk of the whole list (and one compare per 512), one with
# exactly 511 names after it a walk of 512 and two compares. Made in
# descending name order, 1,380 objects took 14-26 ms here against 60-90 ms
# in tile order (bpy 4.5, one run); for the 4,200 RC2 instances the walk
# of the whole list cost as much as the compares had (perf, bpy 4.5), so
# beyond 511 names the order is: the 511 largest descending, then the
# others ascending (docs/performance-rc2-import.md).
_FOLD = bytes((b + 32 if 65 <= b <= 90 else b) ^ 0x80 for b in range(256))
_STEP = 511                    # Blender's ID_SORT_STEP_SIZE (512) less one


def blender_name_key(name: str) -> bytes:
    """A sort key ordering names as Blender orders its ID lists."""
    return name.encode("utf-8").translate(_FOLD)


def creation_order(names) -> list[int]:
    """Indices of names in the order that makes Blender's sorted insert
    cheapest (see above): the 511 largest in descending order, then the
    others in ascending order, each with the 511 largest after it."""
    keys = [blender_name_key(n) for n in names]
    up = sorted(range(len(keys)), key=keys.__getitem__)
    top = up[len(up) - _STEP:] if len(up) > _STEP else up
    return top[::-1] + up[:len(up) - len(top)]


def new_ids(collection, names, *args) -> list:
    """collection.new(names[i], *(a[i] for a in args)) for every i, made in
    creation_order; returned in the order of names."""
    out = [None] * len(names)
    new = collection.new
    for i in creation_order(names):
        out[i] = new(names[i], *(a[i] for a in args))
    return out


def layer_collection(lc, coll):
    """The LayerCollection of coll at or below lc, or None."""
    if lc.collection == coll:
        return lc
    for child in lc.children:
        found = layer_collection(child, coll)
        if found is not None:
            return found
    return None


class Created:
    def __init__(self):
        self.items: list[tuple[str, object]] = []

    def add(self, kind: str, datablock):
        """kind: the bpy.data collection name ("meshes", "objects", ...)."""
        self.items.append((kind, datablock))
        return datablock

    def add_all(self, kind: str, datablocks: list) -> list:
        self.items.extend((kind, d) for d in datablocks)
        return datablocks

    def of_kind(self, kind: str) -> list:
        return [d for k, d in self.items if k == kind]

    def mesh_object(self, name: str, mesh):
        self.add("meshes", mesh)
        return self.add("objects", bpy.data.objects.new(name, mesh))

    def rollback(self) -> None:
        try:
            bpy.data.batch_remove([block for _kind, block in self.items])
            self.items.clear()
            return
        except (ReferenceError, RuntimeError, TypeError):
            pass
        for kind, block in reversed(self.items):
            try:
                getattr(bpy.data, kind).remove(block)
            except ReferenceError:      # already freed with its owner
                pass
        self.items.clear()


class Progress:
    """wm.progress_* when there is a window manager (not in bpy-as-module
    background runs without one)."""

    def __init__(self, context, total: int):
        self.wm = getattr(context, "window_manager", None)
        self.total = max(1, total)
        if self.wm is not None:
            self.wm.progress_begin(0, self.total)

    def update(self, n: int) -> None:
        if self.wm is not None:
            self.wm.progress_update(min(n, self.total))

    def end(self) -> None:
        if self.wm is not None:
            self.wm.progress_end()
