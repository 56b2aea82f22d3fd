"""The RC2 export reads the terrain and collision meshes again only when
Blender reported them changed since an earlier export found them to be the
base level's (blender_addon/edit_track.py, docs/blender-rc2.md "Speed").
These tests hold it to that: the first export after an import reads both,
the next ones neither; every kind of Python edit of either mesh, and every
change that tags no mesh (a material renamed or its tag edited, the object
moved) reaches the written level; what the depsgraph cannot see (a hidden
object, a base file changed on disk, the handler off) is read whole; the
terrain compared only where it differs from the last compare's read writes
what the whole compare writes; an instance planned without a look at each
object is still named in an error about it."""
from __future__ import annotations

import os
import re

import bmesh
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import edit_track, export_rc2_collision, export_rc2_terrain
from builders import rc2_world as W
from mesh_edits import bmesh_move, nudge

pytestmark = pytest.mark.every_blender


@pytest.fixture(scope="module")
def world_bytes():
    return W.world(**W.SMALL, collision_slack=0x2000)[0]


@pytest.fixture
def level(world_bytes, tmp_path):
    p = tmp_path / "LEVEL3.WAD"
    p.write_bytes(world_bytes)
    return str(p), world_bytes


READS = {"terrain": 0, "collision": 0}


@pytest.fixture
def reads(monkeypatch):
    """How many times the exports read the terrain / collision mesh whole
    (counted from the end of the last imported(): its first export reads
    both)."""
    got = READS
    got.update(terrain=0, collision=0)
    orig_t, orig_c = export_rc2_terrain._read, export_rc2_collision.read

    def read_t(ob):
        got["terrain"] += 1
        return orig_t(ob)

    def read_c(ob):
        got["collision"] += 1
        return orig_c(ob)

    monkeypatch.setattr(export_rc2_terrain, "_read", read_t)
    monkeypatch.setattr(export_rc2_collision, "read", read_c)
    return got


def imported(path, tmp_path=None, **kw):
    """Import the level; with tmp_path, export it once (which reads both
    meshes, finds them the base level's and records them)."""
    assert bpy.ops.import_scene.wadkit_rc2(filepath=path, **kw) == {"FINISHED"}
    if tmp_path is not None:
        assert export(tmp_path, "first.wad").read_bytes() == open(path, "rb").read()
    READS.update(terrain=0, collision=0)
    root = bpy.data.collections["LEVEL3"]
    (t,) = [o for o in root.all_objects if o.get("wadkit_kind") == "terrain"]
    (c,) = [o for o in root.all_objects if o.get("wadkit_kind") == "collision"]
    return t, c


def export(tmp_path, name="out.wad"):
    out = tmp_path / name
    assert bpy.ops.export_scene.wadkit_rc2(filepath=str(out)) == {"FINISHED"}
    return out


def _tfrag_number(name):
    return int(re.search(r" tfrag (\d+)", name).group(1))


def _other_tfrag_material(me):
    mine = _tfrag_number(me.materials[0].name)
    return next(m for m in bpy.data.materials
                if " tfrag " in m.name and _tfrag_number(m.name) != mine)


def _rename_material(me):
    """Slot 0's material renamed to another tfrag texture: no mesh is tagged."""
    m = me.materials[0]
    n = (_tfrag_number(m.name) + 1) % W.N_TFRAG_TEX
    m.name = re.sub(r" tfrag \d+.*$", f" tfrag {n:03d}", m.name)


TERRAIN_EDITS = {
    "vertex co": lambda ob: setattr(ob.data.vertices[0], "co", ob.data.vertices[0].co
                                    + type(ob.data.vertices[0].co)((0, 0, 0.25))),
    "position foreach_set": lambda ob: nudge(ob.data.attributes["position"].data,
                                              "vector", 3, 2),
    "uv foreach_set": lambda ob: nudge(ob.data.uv_layers.active.data, "uv", 2, 0, 0.3),
    "colour foreach_set": lambda ob: nudge(ob.data.color_attributes["Col"].data, "color",
                                            4, 0, -0.5),
    "material slot": lambda ob: ob.data.materials.__setitem__(
        0, _other_tfrag_material(ob.data)),
    "material renamed": lambda ob: _rename_material(ob.data),
    "bmesh.to_mesh": lambda ob: bmesh_move(ob.data),
    "object moved": lambda ob: setattr(ob, "location", (0.0, 0.0, 0.5)),
}


def test_unchanged_level_reads_both_meshes_once(scene, level, tmp_path, reads):
    imported(level[0])
    assert export(tmp_path).read_bytes() == level[1]
    assert reads == {"terrain": 1, "collision": 1}
    # found unchanged: the next exports read neither (an export is no edit)
    for name in ("again.wad", "third.wad"):
        assert export(tmp_path, name).read_bytes() == level[1]
        assert reads == {"terrain": 1, "collision": 1}


@pytest.mark.parametrize("edit", sorted(TERRAIN_EDITS))
def test_every_terrain_edit_reaches_the_file(scene, level, tmp_path, edit, reads):
    """Edits without mesh.update() or an evaluation: each is written, and
    the terrain is read whole for it."""
    t, _ = imported(level[0], tmp_path)
    TERRAIN_EDITS[edit](t)
    out = export(tmp_path).read_bytes()
    assert out != level[1]
    assert reads == {"terrain": 1, "collision": 0}
    base = wadkit.rc2.open(level[0]).terrain(0)
    new = wadkit.rc2.open(str(tmp_path / "out.wad")).terrain(0)
    assert any(not np.array_equal(base[k], new[k])
               for k in ("positions", "uv", "color", "texture"))


def test_collision_edits_reach_the_file(scene, level, tmp_path, reads):
    _, c = imported(level[0], tmp_path)
    nudge(c.data.attributes["position"].data, "vector", 3, 2, 0.5)
    assert export(tmp_path).read_bytes() != level[1]
    assert reads == {"terrain": 0, "collision": 1}


def test_collision_tag_edited_on_its_material(scene, level, tmp_path, reads):
    """A tag material's wadkit_tag changed: no mesh is tagged, the tags of
    the faces change (the mesh is read whole and written)."""
    _, c = imported(level[0], tmp_path)
    m = c.material_slots[0].material
    m["wadkit_tag"] = (int(m["wadkit_tag"]) + 1) % 256
    assert export(tmp_path).read_bytes() != level[1]
    assert reads["collision"] == 1
    old = wadkit.rc2.open(level[0]).collision()["tag"]
    new = wadkit.rc2.open(str(tmp_path / "out.wad")).collision()["tag"]
    assert not np.array_equal(np.sort(old), np.sort(new))


def test_hidden_terrain_edit_is_written(scene, level, tmp_path, reads):
    """A hidden object is not evaluated (its edit is reported only once it
    is shown): the mesh is read whole, the edit written."""
    t, _ = imported(level[0], tmp_path)
    t.hide_set(True)
    bpy.context.view_layer.update()
    nudge(t.data.attributes["position"].data, "vector", 3, 2)
    assert export(tmp_path).read_bytes() != level[1]
    assert reads["terrain"] == 1


def test_base_file_changed_on_disk_reads_both(scene, level, tmp_path, reads):
    imported(level[0], tmp_path)
    st = os.stat(level[0])
    os.utime(level[0], ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert export(tmp_path).read_bytes() == level[1]
    assert reads == {"terrain": 1, "collision": 1}


def test_no_tracking_without_the_handler(scene, level, tmp_path, reads):
    imported(level[0])
    edit_track.unregister()
    try:
        for name in ("a.wad", "b.wad"):
            assert export(tmp_path, name).read_bytes() == level[1]
    finally:
        edit_track.register()
    assert reads == {"terrain": 2, "collision": 2}


def test_terrain_found_changed_is_read_again(scene, level, tmp_path, reads):
    """A terrain the compare found changed (a vertex moved before the first
    export) is not recorded: every export reads it, though Blender reports
    nothing new between them; the unchanged collision is recorded."""
    t, c = imported(level[0])
    t.data.vertices[0].co.z += 0.5
    export(tmp_path, "a.wad")
    export(tmp_path, "b.wad")
    assert reads == {"terrain": 2, "collision": 1}


def test_terrain_without_vertex_colours_is_recorded(scene, level, tmp_path, reads):
    """Imported without vertex colours (no colour attribute), the terrain
    keeps the level's colours: found unchanged, byte-identical, recorded;
    a colour attribute added later is a change of what the export reads
    (tracked_props), so that export reads it again."""
    t, c = imported(level[0], vertex_colors=False)
    assert export(tmp_path, "a.wad").read_bytes() == level[1]
    assert export(tmp_path, "b.wad").read_bytes() == level[1]
    assert reads == {"terrain": 1, "collision": 1}
    t.data.color_attributes.new("Col", "FLOAT_COLOR", "CORNER")
    export(tmp_path, "c.wad")
    assert reads["terrain"] == 2


def test_untouched_instance_is_named_in_an_error(scene, level):
    """The instances planned all at once (Instances._plain: the only object
    of an instance, in place) are still named in an error about them, by
    their number in the written list (after a deleted one: one less)."""
    from blender_addon.export_rc2 import _Scan
    from blender_addon.export_rc2_instances import Instances, placements
    imported(level[0])
    root = bpy.data.collections["LEVEL3"]
    mobys = objects(root, "moby")
    gone = mobys[1]
    bpy.data.objects.remove(gone)
    lvl = wadkit.rc2.open(level[0])
    notes: list = []
    scan = _Scan(root, notes)
    inst = Instances(lvl, lvl.edit(), notes, ["tie", "shrub", "moby"])
    assert inst.plan(scan.instances, placements(root, scan.instances, scan.count))   # the delete
    assert inst.name_in("moby 3: too far") == f"{mobys[4].name}: moby 3: too far"
    assert inst.name_in("tie 0: x") == f"{objects(root, 'tie')[0].name}: tie 0: x"


def objects(root, kind):
    return sorted((o for o in root.all_objects if o.get("wadkit_kind") == kind),
                  key=lambda o: o["wadkit_instance"])


def test_baseline_compare_writes_what_the_whole_compare_writes(scene, level, tmp_path):
    """After an edit the export compares only the rows that differ from
    what the last compare read (its baseline); the file is the one the
    compare of every row with the base level writes."""
    t, _ = imported(level[0], tmp_path)
    root = bpy.data.collections["LEVEL3"]
    session = edit_track.session_for(root, level[0])
    assert session is not None and session.extra.get("terrain") is not None
    me = t.data
    n = len(me.loops)
    nudge(me.attributes["position"].data, "vector", 3, 2)
    nudge(me.uv_layers.active.data, "uv", 2, 2 * (n // 2), 0.3)
    nudge(me.color_attributes["Col"].data, "color", 4, 4 * (n - 1), -0.5)
    nudge(me.color_attributes["Col"].data, "color", 4, 4 * (n // 3), 1e-4)  # within 2e-3
    fast = export(tmp_path, "fast.wad").read_bytes()
    kept = session.extra.pop("terrain")
    whole = export(tmp_path, "whole.wad").read_bytes()
    session.extra["terrain"] = kept
    assert fast == whole != level[1]


def test_baseline_of_an_untouched_part_writes_what_the_whole_compare_writes(
        scene, level, tmp_path):
    """A part (UVs, colours) not touched since the last compare is taken
    whole from the baseline, with the rows that compare found moved then:
    after a UV and a colour edit and an export, an edit of positions alone
    writes the file the compare of every row writes (the UV and colour
    edits still in it)."""
    t, _ = imported(level[0], tmp_path)
    root = bpy.data.collections["LEVEL3"]
    session = edit_track.session_for(root, level[0])
    me = t.data
    n = len(me.loops)
    nudge(me.uv_layers.active.data, "uv", 2, 2 * (n // 2), 0.3)
    nudge(me.color_attributes["Col"].data, "color", 4, 4 * (n - 1), -0.5)
    first = export(tmp_path, "uv.wad").read_bytes()
    nudge(me.attributes["position"].data, "vector", 3, 5)
    fast = export(tmp_path, "fast.wad").read_bytes()
    kept = session.extra.pop("terrain")
    whole = export(tmp_path, "whole.wad").read_bytes()
    session.extra["terrain"] = kept
    assert fast == whole
    assert len({level[1], first, fast}) == 3
    new = wadkit.rc2.from_bytes(fast).terrain(0)
    np.testing.assert_array_equal(new["uv"], wadkit.rc2.from_bytes(first).terrain(0)["uv"])


def test_base_level_is_read_once_per_session(scene, level, tmp_path):
    """The base level an export reads (into memory, no mapping kept) is the
    one the next exports of the session use, with its decodes cached; a
    base file changed on disk is read anew; exporting over the base file
    is still refused."""
    t, _ = imported(level[0], tmp_path)
    root = bpy.data.collections["LEVEL3"]
    first = edit_track.session_for(root, level[0]).extra["base_level"]
    assert first.path == level[0]
    t.data.vertices[0].co.z += 0.25
    out = export(tmp_path, "edited.wad")
    assert edit_track.session_for(root, level[0]).extra["base_level"] is first
    new = wadkit.rc2.open(str(out))
    assert not np.array_equal(new.terrain(0)["positions"], first.terrain(0)["positions"])
    # the base file replaced by the edited level: read anew, the edit now
    # is the base's (nothing left to write)
    data = out.read_bytes()
    with open(level[0], "wb") as f:
        f.write(data)
    st = os.stat(level[0])
    os.utime(level[0], ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert export(tmp_path, "again.wad").read_bytes() == data
    assert edit_track.session_for(root, level[0]).extra["base_level"] is not first
    with pytest.raises(RuntimeError, match="source file"):
        bpy.ops.export_scene.wadkit_rc2(filepath=level[0])
