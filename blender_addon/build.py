"""Transactional creation of Blender data: everything an import makes is
recorded, and removed again if the import fails, so a failed import leaves
no partial objects, meshes, materials or images behind."""
from __future__ import annotations

import bpy


class Created:
    def __init__(self):
        self.items: list[tuple[str, object]] = []

    def add(self, kind: str, datablock):
        """kind: the bpy.data collection name ("meshes", "objects", ...)."""
        self.items.append((kind, datablock))
        return datablock

    def mesh_object(self, name: str, mesh):
        self.add("meshes", mesh)
        return self.add("objects", bpy.data.objects.new(name, mesh))

    def rollback(self) -> None:
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
