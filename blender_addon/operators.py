"""The import/export operators, their menu entries and the file handlers
that import a .wad dropped on the 3D view (Blender 4.1+)."""
from __future__ import annotations

import os

import bpy
from bpy.props import (BoolProperty, CollectionProperty, EnumProperty, IntProperty,
                       StringProperty)
from bpy_extras.io_utils import ExportHelper, ImportHelper

import wadkit


def _object_count(coll) -> int:
    """The objects an import made into coll and its children (none is in
    two of them): without Collection.all_objects, whose first read builds
    a cache with one list search per object (13 ms for the 4,296 objects
    of the RC2 bench level, bpy 4.5)."""
    return sum(len(c.objects) for c in (coll, *coll.children_recursive))


def _fail(op, exc) -> set:
    op.report({"ERROR"}, str(exc))
    return {"CANCELLED"}


def eng_level_in_scene(context) -> bool:
    """An imported ENG level (a collection the import marked) is in the
    scene: what the export and the floor tools work on."""
    from .export_common import level_collections
    return bool(level_collections(getattr(context, "scene", None), "eng"))


def poll_eng_level(cls, context) -> bool:
    """Operator.poll of the operators that work on an imported ENG level
    (export, floor tools, Build collision), saying why not."""
    if eng_level_in_scene(context):
        return True
    cls.poll_message_set("no imported ENG level in the scene")
    return False


class LevelEdit:
    """Mixin of the operators that change an imported ENG level in the
    scene (Make tile objects, Build collision): poll by poll_eng_level;
    execute runs `act(context, notes)`, which returns its INFO line, reports
    each note as a WARNING, and turns the errors it may raise (the export's,
    wadkit's, OSError and the class's `refusals`) into an ERROR report."""
    refusals: tuple = ()
    poll = classmethod(poll_eng_level)

    def execute(self, context):
        from .export_common import ExportError
        notes: list[str] = []
        try:
            info = self.act(context, notes)
        except (ExportError, wadkit.WadError, OSError, *self.refusals) as e:
            return _fail(self, e)
        for note in notes:
            self.report({"WARNING"}, note)
        self.report({"INFO"}, info)
        return {"FINISHED"}


class _Dropped:
    """Import options for several files at once (drag and drop, or a file
    browser selection) on top of ImportHelper's filepath; invoked with a
    path already set (a drop) it asks for the options in a popup (4.2+)."""
    directory: StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})
    files: CollectionProperty(type=bpy.types.OperatorFileListElement,
                              options={"HIDDEN", "SKIP_SAVE"})

    def paths(self) -> list[str]:
        names = [f.name for f in self.files if f.name]
        if self.directory and names:
            return [os.path.join(self.directory, n) for n in names]
        return [self.filepath]

    def invoke(self, context, event):
        if hasattr(ImportHelper, "invoke_popup"):
            return self.invoke_popup(context)
        return ImportHelper.invoke(self, context, event)


class IMPORT_SCENE_OT_wadkit_eng(_Dropped, bpy.types.Operator, ImportHelper):
    """Import a Croc-engine (The Emperor's New Groove PC) level WAD"""
    bl_idname = "import_scene.wadkit_eng"
    bl_label = "Import Croc-engine level"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.WAD", options={"HIDDEN"})
    import_collision: BoolProperty(
        name="Collision objects", default=False,
        description="Make the collision objects now: one mesh per model, shown as a "
                    "child object of each tile (tile space), in the Collision "
                    "collection. Off: made on demand (sidebar > wadkit > Build "
                    "collision, or Object > Build ENG collision); until then the "
                    "level's collision is written back as it is, moving with its "
                    "tiles (the import is faster). On, with Objects per left as it "
                    "is: one object per tile")
    show_collision: BoolProperty(
        name="Show collision", default=False,
        description="Make the collision objects now and show the Collision collection "
                    "right away; off (with Collision objects on): it is made but left "
                    "out of the view layer until you tick it in the outliner (the "
                    "import and the viewport are faster)")
    import_objects: BoolProperty(name="Objects", default=True,
                                 description="Import the STPC object models")
    vertex_colors: BoolProperty(name="Vertex colours", default=True,
                                description="Vertex colour attributes, multiplied in the materials")
    merge: EnumProperty(name="Objects per", default="ZONE", items=(
        ("ZONE", "Zone", "One object per zone in world space (the face attribute "
                         "wadkit_tile keeps each face's tile): vertex, UV and colour "
                         "edits, whole tiles moved, turned or deleted; Make tile objects "
                         "(sidebar > wadkit) turns chosen tiles into tile objects"),
        ("TILE", "Tile", "One object per tile, placed by the tile, its model's mesh in "
                         "tile space (shared by tiles of one model and colours); the "
                         "import is slower (Blender's cost per object)")))

    def merge_mode(self) -> str:
        """Objects per as set, else import_eng.default_merge()."""
        from .import_eng import default_merge
        if self.properties.is_property_set("merge"):
            return self.merge
        return default_merge(self.import_collision or self.show_collision)

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        for name in ("import_collision", "show_collision", "import_objects",
                     "vertex_colors", "merge"):
            layout.prop(self, name)
        if self.merge_mode() != self.merge:
            layout.label(text="Objects per tile: collision objects are tile children",
                         icon="INFO")

    def execute(self, context):
        from .import_eng import import_eng
        merge = self.merge_mode()
        for path in self.paths():
            try:
                lvl = wadkit.eng.open(path)
                notes = []
                coll = import_eng(context, lvl, collision=self.import_collision,
                                  objects=self.import_objects,
                                  vertex_colors=self.vertex_colors, merge=merge,
                                  notes=notes, show_collision=self.show_collision)
            except (wadkit.WadError, OSError) as e:
                return _fail(self, e)
            for note in notes:
                self.report({"WARNING"}, note)
            self.report({"INFO"}, f"imported {coll.name}: {_object_count(coll)} objects")
        return {"FINISHED"}


class EXPORT_SCENE_OT_wadkit_eng(bpy.types.Operator, ExportHelper):
    """Write the imported Croc-engine level back to a new WAD"""
    bl_idname = "export_scene.wadkit_eng"
    bl_label = "Export Croc-engine level"
    bl_options = {"REGISTER", "PRESET"}

    poll = classmethod(poll_eng_level)

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.WAD", options={"HIDDEN"})
    base_path: StringProperty(name="Base level", subtype="FILE_PATH",
                              description="The WAD the new one is based on "
                                          "(default: the imported file)")
    triangulate: BoolProperty(
        name="Triangulate", default=True,
        description="Split faces of four or more corners into triangles as Blender "
                    "does (the level stores triangles); off: such faces are an error")
    floors_from_faces: BoolProperty(
        name="Collision from new meshes", default=False,
        description="A new object without a collision child (a child mesh named "
                    "'... collision') gets collision from its own faces, so it can be "
                    "walked on; off: it gets no collision (and the export says so)")
    zones: EnumProperty(name="Zones of new tiles", default="keep", items=(
        ("keep", "Keep", "New tiles take the zone of their cell"),
        ("flat", "Flat", "Every cell zone 0, and zone 0 sees all zones")))

    def draw(self, context):
        # no property split: the file browser's sidebar is narrow, and a
        # split cuts these labels short
        layout = self.layout
        layout.use_property_split = False
        layout.label(text="Base level")
        layout.prop(self, "base_path", text="")
        layout.prop(self, "triangulate")
        layout.prop(self, "floors_from_faces")
        layout.label(text="Zones of new tiles")
        layout.prop(self, "zones", text="")

    def execute(self, context):
        from .export_eng import ExportError, Options, export_eng
        opts = Options(triangulate=self.triangulate,
                       floors_from_faces=self.floors_from_faces, zones=self.zones)
        try:
            how, notes = export_eng(context, self.filepath,
                                    base_path=self.base_path or None, options=opts)
        except (ExportError, wadkit.WadError, OSError, ValueError) as e:
            return _fail(self, e)
        for note in notes:
            self.report({"WARNING"}, note)
        self.report({"INFO"}, f"wrote {self.filepath} ({how})")
        return {"FINISHED"}


class IMPORT_SCENE_OT_wadkit_rc2(_Dropped, bpy.types.Operator, ImportHelper):
    """Import a Ratchet & Clank 2 (PS2) LEVEL<n>.WAD: terrain, ties, shrubs,
    mobys, sky and collision"""
    bl_idname = "import_scene.wadkit_rc2"
    bl_label = "Import Ratchet & Clank 2 level"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.WAD", options={"HIDDEN"})
    lod: IntProperty(name="LOD", default=0, min=0, max=2,
                     description="Level of detail of terrain and ties (0 = finest; "
                                 "mobys have 0 and 1)")
    vertex_colors: BoolProperty(name="Vertex colours", default=True)
    import_terrain: BoolProperty(name="Terrain", default=True,
                                 description="The tfrag terrain (and the chunks')")
    import_ties: BoolProperty(name="Ties", default=True,
                              description="Tie instances: one mesh per class, its instances placed")
    import_shrubs: BoolProperty(name="Shrubs", default=True)
    import_mobys: BoolProperty(name="Mobys", default=True,
                               description="Moby instances: class meshes, or empties "
                                           "where a class has no mesh")
    import_sky: BoolProperty(name="Sky", default=True,
                             description="The sky shells on a sphere around the level")
    import_collision: BoolProperty(name="Collision", default=True,
                                   description="The collision mesh, one material per "
                                               "tag, hidden from render")
    instancing: EnumProperty(name="Instances", default="COLLECTION", items=(
        ("COLLECTION", "Collection instances",
         "Each class one mesh in a collection of its own (under Classes, excluded "
         "from the view layer); instances are empties showing it"),
        ("LINKED", "Linked duplicates",
         "Instances are objects sharing their class's mesh")))
    import_world: BoolProperty(name="World colour", default=True,
                               description="Set the scene's world to the level's "
                                           "background colour")

    def execute(self, context):
        from .import_rc2 import import_rc2
        parts = [p for p in ("terrain", "ties", "shrubs", "mobys", "sky", "collision")
                 if getattr(self, f"import_{p}")]
        for path in self.paths():
            notes = []
            try:
                coll = import_rc2(context, wadkit.rc2.open(path), lod=self.lod,
                                  vertex_colors=self.vertex_colors, parts=parts,
                                  world=self.import_world, instancing=self.instancing,
                                  notes=notes)
            except (wadkit.WadError, OSError) as e:
                return _fail(self, e)
            for note in notes:
                self.report({"WARNING"}, note)
            self.report({"INFO"}, f"imported {coll.name}: {_object_count(coll)} objects")
        return {"FINISHED"}


class EXPORT_SCENE_OT_wadkit_rc2(bpy.types.Operator, ExportHelper):
    """Write the imported Ratchet & Clank 2 level back to a new LEVEL WAD"""
    bl_idname = "export_scene.wadkit_rc2"
    bl_label = "Export Ratchet & Clank 2 level"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.WAD", options={"HIDDEN"})
    base_path: StringProperty(name="Base level", subtype="FILE_PATH",
                              description="The LEVEL WAD the new one is based on "
                                          "(default: the imported file)")

    @classmethod
    def poll(cls, context):
        from .export_common import level_collections
        if level_collections(context.scene, "rc2"):
            return True
        cls.poll_message_set("no imported RC2 level in the scene")
        return False

    def execute(self, context):
        from .export_rc2 import ExportError, export_rc2
        try:
            how, notes = export_rc2(context, self.filepath, base_path=self.base_path or None)
        except (ExportError, wadkit.WadError, OSError) as e:
            return _fail(self, e)
        for note in notes:
            self.report({"WARNING"}, note)
        self.report({"INFO"}, f"wrote {self.filepath} ({how})")
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_wadkit_eng.bl_idname,
                         text="Croc-engine level (.wad)")
    self.layout.operator(IMPORT_SCENE_OT_wadkit_rc2.bl_idname,
                         text="Ratchet & Clank 2 level (.wad)")


def _menu_export(self, context):
    if eng_level_in_scene(context):        # nothing to export otherwise
        self.layout.operator(EXPORT_SCENE_OT_wadkit_eng.bl_idname,
                             text="Croc-engine level (.wad)")
    if EXPORT_SCENE_OT_wadkit_rc2.poll(context):
        self.layout.operator(EXPORT_SCENE_OT_wadkit_rc2.bl_idname,
                             text="Ratchet & Clank 2 level (.wad)")


CLASSES = [IMPORT_SCENE_OT_wadkit_eng, EXPORT_SCENE_OT_wadkit_eng,
           IMPORT_SCENE_OT_wadkit_rc2, EXPORT_SCENE_OT_wadkit_rc2]

def _file_handler(idname: str, label: str, operator):
    """A handler importing a dropped .wad on the 3D view or the outliner's
    view layer with operator. Both games name their levels .wad: Blender
    offers the two handlers to choose from when one is dropped."""
    def poll_drop(cls, context):
        area = context.area
        return area is not None and (area.type == "VIEW_3D" or (
            area.type == "OUTLINER" and area.spaces.active.display_mode == "VIEW_LAYER"))
    return type(idname, (bpy.types.FileHandler,), {
        "bl_idname": idname, "bl_label": label,
        "bl_import_operator": operator.bl_idname,
        "bl_file_extensions": ".wad;.WAD", "poll_drop": classmethod(poll_drop)})


if hasattr(bpy.types, "FileHandler"):      # Blender 4.1+: drag and drop
    CLASSES += [_file_handler("WADKIT_FH_eng", "Croc-engine level",
                              IMPORT_SCENE_OT_wadkit_eng),
                _file_handler("WADKIT_FH_rc2", "Ratchet & Clank 2 level",
                              IMPORT_SCENE_OT_wadkit_rc2)]


def register_menus():
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister_menus():
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
