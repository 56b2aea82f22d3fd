"""The import/export operators and their menu entries."""
from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

import wadkit


def _fail(op, exc) -> set:
    op.report({"ERROR"}, str(exc))
    return {"CANCELLED"}


class IMPORT_SCENE_OT_wadkit_eng(bpy.types.Operator, ImportHelper):
    """Import a Croc-engine (The Emperor's New Groove PC) level WAD"""
    bl_idname = "import_scene.wadkit_eng"
    bl_label = "Import Croc-engine level"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.WAD", options={"HIDDEN"})
    import_collision: BoolProperty(name="Collision", default=True,
                                   description="Import the collision polygons")
    import_objects: BoolProperty(name="Objects", default=True,
                                 description="Import the STPC object models")
    vertex_colors: BoolProperty(name="Vertex colours", default=True,
                                description="Vertex colour attributes, multiplied in the materials")
    merge: EnumProperty(name="Objects per", default="TILE", items=(
        ("TILE", "Tile", "One object per tile, placed by the tile transform"),
        ("ZONE", "Zone", "One object per zone (world space; the tile of each face "
                         "kept as a face attribute, so it exports too)")))

    def execute(self, context):
        from .import_eng import import_eng
        try:
            lvl = wadkit.eng.open(self.filepath)
            notes = []
            coll = import_eng(context, lvl, collision=self.import_collision,
                              objects=self.import_objects,
                              vertex_colors=self.vertex_colors, merge=self.merge,
                              notes=notes)
        except (wadkit.WadError, OSError) as e:
            return _fail(self, e)
        for note in notes:
            self.report({"WARNING"}, note)
        self.report({"INFO"}, f"imported {coll.name}: {len(coll.all_objects)} objects")
        return {"FINISHED"}


class EXPORT_SCENE_OT_wadkit_eng(bpy.types.Operator, ExportHelper):
    """Write the imported Croc-engine level back to a new WAD"""
    bl_idname = "export_scene.wadkit_eng"
    bl_label = "Export Croc-engine level"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.WAD", options={"HIDDEN"})
    base_path: StringProperty(name="Base level", subtype="FILE_PATH",
                              description="The WAD the new one is based on "
                                          "(default: the imported file)")
    keep_tiles: BoolProperty(name="Keep base tiles", default=False,
                             description="Keep the base level's own tiles and add "
                                         "the scene's geometry as new tiles")
    zones: EnumProperty(name="Zones", default="keep", items=(
        ("keep", "Keep", "Keep the base level's zones"),
        ("flat", "Flat", "One zone for the whole grid")))

    def execute(self, context):
        from .export_eng import ExportError, export_eng
        try:
            how, notes = export_eng(context, self.filepath, base_path=self.base_path or None,
                             keep_tiles=self.keep_tiles, zones=self.zones)
        except (ExportError, wadkit.WadError, OSError, ValueError) as e:
            return _fail(self, e)
        for note in notes:
            self.report({"WARNING"}, note)
        self.report({"INFO"}, f"wrote {self.filepath} ({how})")
        return {"FINISHED"}


class IMPORT_SCENE_OT_wadkit_rc2(bpy.types.Operator, ImportHelper):
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
                              description="Tie instances: one mesh per class, linked duplicates")
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
        notes = []
        try:
            coll = import_rc2(context, wadkit.rc2.open(self.filepath), lod=self.lod,
                              vertex_colors=self.vertex_colors, parts=parts,
                              world=self.import_world, instancing=self.instancing,
                              notes=notes)
        except (wadkit.WadError, OSError) as e:
            return _fail(self, e)
        for note in notes:
            self.report({"WARNING"}, note)
        self.report({"INFO"}, f"imported {coll.name}: {len(coll.all_objects)} objects")
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_wadkit_eng.bl_idname,
                         text="Croc-engine level (.wad)")
    self.layout.operator(IMPORT_SCENE_OT_wadkit_rc2.bl_idname,
                         text="Ratchet & Clank 2 level (.wad)")


def _menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_wadkit_eng.bl_idname,
                         text="Croc-engine level (.wad)")


CLASSES = [IMPORT_SCENE_OT_wadkit_eng, EXPORT_SCENE_OT_wadkit_eng,
           IMPORT_SCENE_OT_wadkit_rc2]


def register_menus():
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister_menus():
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
