"""ENG collision objects made on demand (the default import makes none;
Build collision makes them later): the level's collision moves, turns,
copies and deletes with its tiles meanwhile, the export writes it as it
is and says nothing of objects that were never made; once built, the
children are edited and exported as the import's are."""
import math

import bpy
import numpy as np
import pytest

import wadkit
from blender_addon import convert

from editing import (assert_floor_on_face, chunk_payloads, collision_child, export,
                     file_points, load, own_tile, terrain, tile_object)

pytestmark = pytest.mark.every_blender


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def on_demand(path):
    coll = load(path, import_collision=False)
    assert not [o for o in bpy.data.objects if "wadkit_collision" in o]
    return coll


def build(*obs):
    """Build collision for the objects obs (selected), or every tile."""
    for o in bpy.context.view_layer.objects:
        o.select_set(o in obs)
    assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
    bpy.context.view_layer.update()


def floor_point(lvl, t):
    """A file-space point above tile t's own floor (the floor test there
    finds tile t)."""
    x0, y0, z0 = lvl.tiles.position[t]
    for dx in (0.0, 0.25, -0.25):
        for dz in (0.0, 0.25, -0.25):
            hit = lvl.floor(float(x0 + dx), float(y0 + 3), float(z0 + dz))
            if hit is not None and int(hit["tile"]) == t:
                return np.array([x0 + dx, hit["height"] + 0.05, z0 + dz])
    raise AssertionError(f"no floor of tile {t} near its origin")


def test_default_import_exports_the_same_bytes_and_says_nothing(scene, terr, tmp_path):
    path, wad = terr
    on_demand(path)
    out = tmp_path / "same.wad"
    how, notes = export(out)
    assert how == "unchanged" and out.read_bytes() == wad
    assert notes == []
    src = wadkit.eng.open(path)
    v = tile_object("terr", own_tile(src))
    v.data.vertices[0].co.z += 0.125            # a render edit: no collision note either
    how, notes = export(tmp_path / "edit.wad")
    assert how.startswith("patched") and not [n for n in notes if "collision" in n], notes
    new = wadkit.eng.open(str(tmp_path / "edit.wad"))    # and every tile's collision kept
    for k in range(len(src.tiles.model)):
        assert bytes(new.models[int(new.tiles.model[k])].collision_raw) == \
            bytes(src.models[int(src.tiles.model[k])].collision_raw)


def test_moved_and_turned_tile_takes_its_collision(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    on_demand(path)
    ob = tile_object("terr", t)
    ob.location.z += 0.75
    ob.rotation_euler.z += math.pi / 2
    out = tmp_path / "turned.wad"
    how, notes = export(out)
    assert notes == []
    assert chunk_payloads(path)["TRAK"] == chunk_payloads(out)["TRAK"]
    new = wadkit.eng.open(str(out))
    assert new.tiles.rotation[t] == (src.tiles.rotation[t] + 1024) % 4096
    build(ob)                           # where the tile's collision now is, shown
    ch = collision_child(ob)
    for f in range(len(ch.data.polygons)):
        assert_floor_on_face(new, ch, f)


def test_deleted_tile_loses_its_collision(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    probe = floor_point(src, t)
    on_demand(path)
    bpy.data.objects.remove(tile_object("terr", t))
    out = tmp_path / "deleted.wad"
    how, notes = export(out)
    assert notes == []
    new = wadkit.eng.open(str(out))
    assert len(new.tiles.model) == len(src.tiles.model) - 1
    hit = new.floor(*probe)
    assert hit is None or hit["height"] < probe[1] - 0.5       # only the water below


def test_copied_tile_gets_its_models_collision(scene, terr, tmp_path):
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    on_demand(path)
    ob = tile_object("terr", t)
    for o in bpy.context.view_layer.objects:
        o.select_set(o == ob)
    bpy.context.view_layer.objects.active = ob
    bpy.ops.object.duplicate()
    copy = bpy.context.view_layer.objects.active
    water = int(np.flatnonzero(src.tiles.model == 0)[0])       # a cell of water
    copy.location = convert.to_blender(src.tiles.position[water][None])[0] + (0, 0, 1.0)
    out = tmp_path / "copy.wad"
    how, notes = export(out)
    assert notes == []              # no child was ever made: nothing is missing
    new = wadkit.eng.open(str(out))
    n = len(src.tiles.model)
    assert len(new.tiles.model) == n + 1 and new.tiles.model[n] == src.tiles.model[t]
    build(copy)
    cc = collision_child(copy)
    for f in range(len(cc.data.polygons)):
        assert_floor_on_face(new, cc, f)


def test_built_collision_is_exported_as_the_imports(scene, terr, tmp_path):
    """Built for one tile: unchanged it exports the same bytes; an edit of it
    is written; deleting it is reported by name."""
    path, wad = terr
    src = wadkit.eng.open(path)
    t = own_tile(src)
    on_demand(path)
    ob = tile_object("terr", t)
    build(ob)
    assert [o.name for o in bpy.data.objects if "wadkit_collision" in o] == \
        [f"terr tile {t} collision"]
    out = tmp_path / "same.wad"
    how, notes = export(out)
    assert how == "unchanged" and out.read_bytes() == wad and notes == []
    ch = collision_child(ob)
    before = file_points(ch)
    ch.data.vertices[0].co.z += 0.1
    ch.data.vertices[1].co.z += 0.1
    out = tmp_path / "edited.wad"
    how, notes = export(out)
    assert how.startswith("patched")
    new = wadkit.eng.open(str(out))
    assert np.abs(file_points(ch) - before).max() > 0.05
    for f in range(len(ch.data.polygons)):
        assert_floor_on_face(new, ch, f)
    bpy.data.objects.remove(ch)
    how, notes = export(tmp_path / "gone.wad")
    assert any("no collision object (deleted?)" in n and ob.name in n for n in notes), notes


def test_build_on_a_per_zone_import_makes_the_tile_objects_first(scene, terr, tmp_path):
    """Per zone (the default import): the selected zone object's tiles
    become tile objects with their collision children, the other zones
    stay; nothing selected: every tile. Unchanged, the export keeps the
    bytes; a tile edited in its zone mesh is refused by name."""
    from editing import face_tiles, zone_objects
    path, wad = terr
    coll = load(path, import_collision=False, merge="ZONE")
    zones = sorted(zone_objects(coll), key=lambda o: len(o.data.polygons))
    first, rest = zones[-1], zones[:-1]
    tiles = set(np.unique(face_tiles(first)).tolist())
    build(first)
    made = [o for o in coll.objects if "wadkit_tile" in o]
    assert {o["wadkit_tile"] for o in made} == tiles
    children = [o for o in bpy.data.objects if "wadkit_collision" in o]
    assert children and {c.parent for c in children} <= set(made)
    assert sorted(o.name for o in zone_objects(coll)) == sorted(o.name for o in rest)
    assert export(tmp_path / "a.wad") == ("unchanged", [])
    assert (tmp_path / "a.wad").read_bytes() == wad
    # an edited zone tile is refused (Make tile objects would lose the edit)
    ob = rest[0]
    z0 = ob.data.vertices[0].co.z
    ob.data.vertices[0].co.z += 0.25
    ob.data.update()
    t = int(face_tiles(ob)[[p.index for p in ob.data.polygons
                             if 0 in p.vertices][0]])
    with pytest.raises(RuntimeError, match=f"^Error: terr: tile\\(s\\) {t}\\b.*edited"):
        build()
    ob.data.vertices[0].co.z = z0
    ob.data.update()
    build()
    assert zone_objects(coll) == []
    assert len([o for o in coll.objects if "wadkit_tile" in o]) == \
        len(np.unique(wadkit.eng.open(path).world_mesh()["tile"]))
    assert export(tmp_path / "b.wad") == ("unchanged", [])


def test_show_collision_makes_them_now(scene, terr):
    """Asked to be shown, the collision objects are made at import, in the
    view layer."""
    path, _ = terr
    load(path, import_collision=False, show_collision=True)
    assert [o for o in bpy.data.objects if "wadkit_collision" in o]
    lc = bpy.context.view_layer.layer_collection.children["terr"].children["terr Collision"]
    assert not lc.exclude


def collision_snapshot():
    """Everything the import or the build made for collision, by object
    name: parent, mesh name, place, look, properties, vertices, faces,
    every attribute and the material slots; and the ground materials."""
    out = {}
    for ob in bpy.data.objects:
        if "wadkit_collision" not in ob:
            continue
        me = ob.data
        co = np.empty(3 * len(me.vertices), np.float32)
        me.vertices.foreach_get("co", co)
        attrs = {}
        for a in me.attributes:
            if a.name.startswith(".") or a.name == "position":
                continue
            n = len(a.data) * (3 if a.data_type == "FLOAT_VECTOR" else 1)
            v = np.empty(n, np.float32 if a.data_type.startswith("FLOAT") else np.int32)
            a.data.foreach_get("vector" if a.data_type == "FLOAT_VECTOR" else "value", v)
            attrs[a.name] = (a.domain, a.data_type, v.tolist())
        out[ob.name] = dict(
            parent=ob.parent.name, parent_mark=ob.parent.get("wadkit_collision_child"),
            mesh=me.name, users=me.users,
            # the stored place (matrix_world of an object left out of the
            # view layer is not evaluated, so not compared)
            basis=[list(r) for r in ob.matrix_basis],
            parent_inverse=[list(r) for r in ob.matrix_parent_inverse],
            look=(ob.display_type, ob.hide_render),
            props={k: getattr(ob[k], "to_list", lambda k=k: ob[k])() for k in ob.keys()},
            collections=sorted(c.name for c in ob.users_collection),
            co=co.tolist(), faces=[tuple(p.vertices) for p in me.polygons],
            attrs=attrs, slots=[s.material.name for s in ob.material_slots])
    ground = {m.name: tuple(m.diffuse_color) for m in bpy.data.materials
              if "wadkit_collision_material" in m}
    return out, ground


def test_build_makes_what_the_import_made(scene, terr):
    """Every tile built after the default import: the same objects, meshes,
    places, attributes and materials as import_collision=True makes, and a
    second build adds nothing."""
    path, _ = terr
    load(path, import_collision=True)
    now, now_ground = collision_snapshot()
    assert now
    bpy.ops.wm.read_factory_settings(use_empty=True)
    on_demand(path)
    build()
    counts = (len(bpy.data.objects), len(bpy.data.meshes), len(bpy.data.materials))
    built, built_ground = collision_snapshot()
    assert sorted(built) == sorted(now)
    for name in now:
        assert built[name] == now[name], name
    assert built_ground == now_ground
    build()
    assert (len(bpy.data.objects), len(bpy.data.meshes), len(bpy.data.materials)) == counts
    assert collision_snapshot()[0] == built


def test_object_menu_entry_only_with_an_eng_level(scene, terr):
    from blender_addon import collision_build

    class Layout:
        def __init__(self):
            self.ops = []

        def operator(self, idname, text=""):
            self.ops.append((idname, text))

    class Menu:
        layout = Layout()
    collision_build._menu_object(Menu, bpy.context)
    assert Menu.layout.ops == []
    on_demand(terr[0])
    collision_build._menu_object(Menu, bpy.context)
    assert Menu.layout.ops == [("wadkit.eng_make_tiles", "Make ENG tile objects"),
                               ("wadkit.eng_build_collision", "Build ENG collision")]
