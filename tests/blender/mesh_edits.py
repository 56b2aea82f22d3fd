"""Ways a script changes a mesh without the UI, shared by the edit
tracking tests (test_edit_track.py for ENG, test_rc2_edit_track.py)."""
from __future__ import annotations

import bmesh
import numpy as np


def nudge(data, prop, width, k=0, by=0.25):
    """One value of a collection's property moved, by foreach_get/set."""
    vals = np.empty(len(data) * width, np.float32)
    data.foreach_get(prop, vals)
    vals[k] += by
    data.foreach_set(prop, vals)


def bmesh_move(me):
    """Vertex 0 raised through bmesh (from_mesh, to_mesh)."""
    bm = bmesh.new()
    bm.from_mesh(me)
    bm.verts.ensure_lookup_table()
    bm.verts[0].co.z += 0.25
    bm.to_mesh(me)
    bm.free()
