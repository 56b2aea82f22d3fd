"""The ENG import's default objects: one object per zone when Objects per
is not given (the fast import; Blender's cost is per object), one per tile
when collision objects are asked for (they are the tiles' children), and
Objects per as given otherwise. From the default import the per-tile
workflow is one step away (Make tile objects), and an unchanged scene
exports byte-identical on every road. Fixture: the from-spec terrain
level (39 tiles in four zones)."""
import bpy
import numpy as np
import pytest

import wadkit
from blender_addon.import_eng import import_eng

from editing import export, face_tiles, terrain, zone_objects

pytestmark = pytest.mark.every_blender


@pytest.fixture
def terr(tmp_path):
    return terrain(tmp_path)


def tile_objects(coll):
    return [o for o in coll.objects if "wadkit_tile" in o]


def zones_of_tiles(lvl) -> np.ndarray:
    """Each tile's zone, read from the level (its cell in the zone grid)."""
    xz = np.asarray(lvl.tiles.cell_xz, np.int64).reshape(-1, 2)
    return np.asarray(lvl.zones.grid)[xz[:, 1], xz[:, 0]]


def test_the_default_import_makes_one_object_per_zone(scene, terr, tmp_path):
    path, wad = terr
    lvl = wadkit.eng.open(path)
    assert bpy.ops.import_scene.wadkit_eng(filepath=path) == {"FINISHED"}
    coll = bpy.data.collections["terr"]
    assert coll["wadkit_merge"] == "ZONE"
    zones = zone_objects(coll)
    assert zones and len(zones) == len(coll.objects)
    assert tile_objects(coll) == []
    assert "terr Collision" not in bpy.data.collections
    # every tile with faces is in the zone object of its zone, whole
    wm_tiles = np.asarray(lvl.world_mesh()["tile"])
    zone_of = zones_of_tiles(lvl)
    assert sorted(o["wadkit_zone"] for o in zones) == np.unique(zone_of[wm_tiles]).tolist()
    for ob in zones:
        ft = face_tiles(ob)
        assert (zone_of[ft] == ob["wadkit_zone"]).all(), ob.name
    shown = np.concatenate([face_tiles(o) for o in zones])
    assert np.array_equal(np.sort(shown), np.sort(wm_tiles))
    summary, notes = export(tmp_path / "o.wad")
    assert (summary, notes) == ("unchanged", [])
    assert (tmp_path / "o.wad").read_bytes() == wad


@pytest.mark.parametrize("ask", ["import_collision", "show_collision"])
def test_asking_for_collision_objects_imports_one_object_per_tile(scene, terr, ask):
    path, _ = terr
    lvl = wadkit.eng.open(path)
    assert bpy.ops.import_scene.wadkit_eng(filepath=path, **{ask: True}) == {"FINISHED"}
    coll = bpy.data.collections["terr"]
    assert coll["wadkit_merge"] == "TILE"
    assert len(tile_objects(coll)) == len(lvl.tiles.model)
    assert zone_objects(coll) == []
    children = bpy.data.collections["terr Collision"].objects
    assert children and all(c.parent in coll.objects.values() for c in children)


def test_objects_per_as_given_wins(scene, terr, tmp_path):
    """merge given: the import makes what it says, also with collision
    asked for per zone (said in a note, the collision written back as it
    is)."""
    path, wad = terr
    assert bpy.ops.import_scene.wadkit_eng(filepath=path, merge="TILE") == {"FINISHED"}
    assert len(tile_objects(bpy.data.collections["terr"])) == 39
    notes = []
    coll = import_eng(bpy.context, wadkit.eng.open(path), name="z", collision=True,
                      merge="ZONE", notes=notes)
    assert zone_objects(coll) and tile_objects(coll) == []
    assert [n for n in notes if "per-zone import shows no collision" in n], notes
    assert bpy.ops.import_scene.wadkit_eng(filepath=path, merge="ZONE",
                                           import_collision=True) == {"FINISHED"}
    assert bpy.data.collections["terr.001"]["wadkit_merge"] == "ZONE"


def test_from_the_default_import_to_tile_objects_with_collision(scene, terr, tmp_path):
    """The per-tile workflow from a default import: Make tile objects of
    every zone, Build collision, an unchanged export still the source's
    bytes; a made tile raised reaches the file with its floor."""
    path, wad = terr
    assert bpy.ops.import_scene.wadkit_eng(filepath=path) == {"FINISHED"}
    coll = bpy.data.collections["terr"]
    for o in bpy.context.view_layer.objects:
        o.select_set(o in zone_objects(coll))
    assert bpy.ops.wadkit.eng_make_tiles() == {"FINISHED"}
    assert zone_objects(coll) == []
    made = tile_objects(coll)
    lvl = wadkit.eng.open(path)
    with_faces = {int(t) for t in np.unique(lvl.world_mesh()["tile"])}
    assert {o["wadkit_tile"] for o in made} == with_faces
    for o in bpy.context.view_layer.objects:
        o.select_set(False)
    assert bpy.ops.wadkit.eng_build_collision() == {"FINISHED"}
    assert bpy.data.collections["terr Collision"].objects
    assert export(tmp_path / "same.wad") == ("unchanged", [])
    assert (tmp_path / "same.wad").read_bytes() == wad
    ob = min(made, key=lambda o: o["wadkit_tile"])
    t = ob["wadkit_tile"]
    ob.location.z += 0.5
    summary, _ = export(tmp_path / "up.wad")
    assert summary.startswith("patched: 1 moved"), summary
    out = wadkit.eng.open(str(tmp_path / "up.wad"))
    assert out.tiles.position[t][1] == pytest.approx(lvl.tiles.position[t][1] + 0.5, abs=1e-3)
    assert np.array_equal(out.tiles.model, lvl.tiles.model)


class _Layout:
    def __init__(self):
        self.props, self.labels, self.use_property_split = [], [], False

    def prop(self, _data, name):
        self.props.append(name)

    def label(self, text="", icon="NONE"):
        self.labels.append(text)


class _Props:
    def __init__(self, set_names):
        self.set_names = set_names

    def is_property_set(self, name):
        return name in self.set_names


@pytest.mark.parametrize("collision, merge_set, shown", [
    (False, False, "ZONE"), (True, False, "TILE"), (True, True, "ZONE")])
def test_the_import_dialog_says_when_collision_makes_tiles(collision, merge_set, shown):
    """The options drawn, and the line saying that the collision objects
    make the import per tile where Objects per (left at Zone) is overruled."""
    from blender_addon.operators import IMPORT_SCENE_OT_wadkit_eng as Op

    class Fake:
        merge_mode = Op.merge_mode
        layout = _Layout()
        import_collision, show_collision, merge = collision, False, "ZONE"
        properties = _Props({"merge"} if merge_set else set())

    Op.draw(Fake(), bpy.context)
    assert Fake.layout.props == ["import_collision", "show_collision", "import_objects",
                                 "vertex_colors", "merge"]
    assert Fake().merge_mode() == shown
    assert bool(Fake.layout.labels) == (shown != "ZONE")


def test_the_export_dialog_draws_every_option_unsplit(scene):
    """Every option of the ENG export is drawn, without a property split
    (which cut "Collision from new meshes" short in the file browser)."""
    from blender_addon.operators import EXPORT_SCENE_OT_wadkit_eng as Op

    class Layout(_Layout):
        def prop(self, _data, name, text=None):
            self.props.append(name)

    class Fake:
        layout = Layout()

    Op.draw(Fake(), bpy.context)
    assert Fake.layout.use_property_split is False
    assert Fake.layout.props == ["base_path", "triangulate", "floors_from_faces", "zones"]
    assert Fake.layout.labels == ["Base level", "Zones of new tiles"]
    # the class's own options, the hidden ones left out
    props = bpy.ops.export_scene.wadkit_eng.get_rna_type().properties
    options = {p.identifier for p in props
               if p.identifier in Op.__annotations__ and not p.is_hidden}
    assert options == set(Fake.layout.props)
