"""RC2 level -> Blender: one collection for the level with the
sub-collections Terrain, Ties, Shrubs, Mobys, Sky and Collision.

Each tie, shrub and moby class is ONE mesh; its instances are empties
showing a collection that holds it (collection instances; or, on request,
linked duplicates: objects sharing the mesh), placed by the instance
matrix, so thousands of instances cost one object each and no geometry.
Instances of
a class without a mesh (no data in the level, a moby without a mesh, a
class that does not decode) are empties named by their class. The sky
shells sit on a large sphere around the level; collision has one material
per tag and is hidden from render; the level's background colour becomes
the world colour. docs/blender-rc2.md, "File > Import > Ratchet & Clank 2".

The custom properties below are what an exporter reads to map objects back
to the level (blender_addon/export_rc2.py); they are set nowhere else."""
from __future__ import annotations

import os

import bpy
import numpy as np
from mathutils import Matrix

import wadkit
from wadkit import _rc2_scene as scene

from . import convert, materials
from .build import Created, Progress, creation_order, layer_collection
from .mesh_build import (MeshArrays, build_mesh, build_meshes, digest, drop_degenerate,
                         srgb_to_linear)

# -- custom properties: the one place they are named ------------------------
# level collection
PROP_FORMAT = "wadkit_format"      # "rc2"
PROP_SOURCE = "wadkit_source"      # the LEVEL<n>.WAD imported
PROP_LOD = "wadkit_lod"            # the LOD of terrain and tie meshes
# level settings the export writes back when they change (export_rc2.py):
# collection property -> Level.settings field
SETTINGS_PROPS = {"wadkit_fog_colour": "fog_colour",
                  "wadkit_background_colour": "background_colour",
                  "wadkit_death_height": "death_height"}
# sub-collections
PROP_PART = "wadkit_part"          # "terrain" "ties" "shrubs" "mobys" "sky" "collision"
# objects (PROP_KIND and PROP_CLASS also on the class meshes)
PROP_KIND = "wadkit_kind"          # "terrain" "chunk_terrain" "tie" "shrub" "moby"
#                                    "sky" "collision" "chunk_collision"
PROP_CLASS = "wadkit_class"        # tie / shrub / moby class number (o_class)
PROP_INSTANCE = "wadkit_instance"  # index into lvl.ties / .shrubs / .mobys
PROP_CHUNK = "wadkit_chunk"        # chunk index of chunk objects
PROP_SHELL = "wadkit_shell"        # sky shell index
PROP_SKY_SCALE = "wadkit_sky_scale"  # the sky object's scale (not the game's)
# meshes the export does not write (class meshes, sky shells, chunk meshes):
# mesh_build.digest() as imported, so the export can report an edit of them
PROP_DIGEST = "wadkit_digest"
# the level collection: the world the import made (an ID property); the
# world: the settings field its colour shows and that colour (r, g, b) as shown
PROP_WORLD = "wadkit_world"
PROP_WORLD_FIELD = "wadkit_colour_field"
PROP_WORLD_RGB = "wadkit_colour"
# the level collection: the parts imported (PARTS); the export deletes
# instances only of the kinds imported
PROP_PARTS = "wadkit_parts"
# face attributes
ATTR_PATCH = "wadkit_patch"        # terrain: tfrag patch of each face
ATTR_TEXTURE = "wadkit_texture"    # terrain: tfrag texture; classes: the kind's texture
ATTR_TAG = "wadkit_tag"            # collision: the face's 8-bit tag

PARTS = ("terrain", "ties", "shrubs", "mobys", "sky", "collision")
_TITLES = {"terrain": "Terrain", "ties": "Ties", "shrubs": "Shrubs", "mobys": "Mobys",
           "sky": "Sky", "collision": "Collision"}


def import_rc2(context, lvl, *, lod: int = 0, name: str | None = None,
               vertex_colors: bool = True, parts=PARTS, world: bool = True,
               instancing: str = "COLLECTION", notes: list | None = None):
    """Import the parts named in `parts` (see PARTS); world: set the
    scene's world colour from the level settings. notes gets one line per
    thing not imported (a class that does not decode, a part whose block
    is broken). instancing: "COLLECTION" (instances are empties showing a
    collection that holds the class mesh) or "LINKED" (linked duplicates of
    the class mesh). Returns the level collection. On an exception everything
    made so far is removed again."""
    created = Created()
    notes = [] if notes is None else notes
    try:
        return _Importer(context, lvl, created, lod, name, vertex_colors, notes,
                         instancing).run(parts, world)
    except BaseException:
        created.rollback()
        raise


def _node_tree(idblock):
    """The node tree of a material or world (Blender 5 always has one;
    before, use_nodes makes it)."""
    if idblock.node_tree is None:
        idblock.use_nodes = True
    return idblock.node_tree


def _by_type(nodes, kind: str):
    return next(n for n in nodes if n.type == kind)


def collision_faces(c: dict) -> tuple:
    """The Blender faces of a collision mesh (lvl.collision()): (positions
    (V,3) f32, corners (L,), face sizes (F,) 3 or 4, tags (F,) i32, number
    of faces left out). The stored triangles, then the quads with a
    repeated corner as the triangles they are, then the other quads;
    faces with fewer than three distinct corners are left out (Blender
    cannot hold them). The export compares an edited mesh with this."""
    quad = np.asarray(c["quad"], bool)
    tri = np.asarray(c["triangles"], np.int64)[~quad]
    ttag = np.asarray(c["tag"])[~quad]
    quads = np.asarray(c["quads"], np.int64).reshape(-1, 4)
    qtag = np.asarray(c["quad_tag"])
    keep = drop_degenerate(tri)
    # a quad with a repeated corner is drawn as the triangle it is
    q_ok = (quads[:, [0, 0, 0, 1, 1, 2]] != quads[:, [1, 2, 3, 2, 3, 3]]).all(axis=1)
    q_tri = [[v for j, v in enumerate(q) if v not in q[:j]] for q in quads[~q_ok].tolist()]
    q_tri_ok = np.array([len(q) == 3 for q in q_tri], bool)
    extra = np.array([q for q, ok in zip(q_tri, q_tri_ok) if ok], np.int64).reshape(-1, 3)
    dropped = len(tri) - len(keep) + int((~q_tri_ok).sum())
    faces3 = np.concatenate([tri[keep], extra])
    tags = np.concatenate([ttag[keep], qtag[~q_ok][q_tri_ok], qtag[q_ok]]).astype(np.int32)
    corners = np.concatenate([faces3.reshape(-1), quads[q_ok].reshape(-1)])
    sizes = np.concatenate([np.full(len(faces3), 3), np.full(int(q_ok.sum()), 4)])
    return (np.asarray(c["positions"], np.float32), corners, sizes.astype(np.int64), tags,
            dropped)


class _Importer:
    def __init__(self, context, lvl, created, lod, name, vertex_colors, notes,
                 instancing="COLLECTION"):
        self.context, self.lvl, self.created = context, lvl, created
        self.lod, self.vertex_colors, self.notes = lod, vertex_colors, notes
        path = getattr(lvl, "path", None)
        self.path = path
        self.name = name or (os.path.splitext(os.path.basename(path))[0] if path else "rc2")
        self.mats: dict = {}
        self.terrain = None
        self.classes = None          # the Classes collection (collection instances)
        self.planned: list = []      # the instances of each kind (_instances)
        self.instancing = instancing

    # ---- the whole ---------------------------------------------------
    def run(self, parts, world: bool):
        c = self.created
        root = c.add("collections", bpy.data.collections.new(self.name))
        root[PROP_SOURCE] = self.path or ""
        root[PROP_FORMAT] = "rc2"
        root[PROP_LOD] = self.lod
        root[PROP_PARTS] = [p for p in PARTS if p in parts]
        self._settings_props(root)
        subs = {}
        for part in PARTS:
            if part in parts:
                sub = subs[part] = c.add("collections", bpy.data.collections.new(
                    f"{self.name} {_TITLES[part]}"))
                sub[PROP_PART] = part
                root.children.link(sub)
        prog = Progress(self.context, len(subs))
        errors = []
        try:
            for k, part in enumerate(subs):
                try:
                    getattr(self, f"_{part}")(subs[part])
                except wadkit.FormatError as e:
                    errors.append(e)
                    self.notes.append(f"{_TITLES[part]}: not imported: {e}")
                prog.update(k + 1)
        finally:
            prog.end()
        steps = list(subs)
        if steps and len(errors) == len(steps):
            raise errors[0]
        self._instance_objects()
        if world:
            self._world(root)
        if self.classes is not None:
            root.children.link(self.classes)
        self.context.scene.collection.children.link(root)
        if self.classes is not None:
            lc = layer_collection(self.context.view_layer.layer_collection, self.classes)
            if lc is not None:
                lc.exclude = True
        return root

    def _settings_props(self, root) -> None:
        """Fog and background colours (s32 r, g, b) and the death height
        as collection properties (SETTINGS_PROPS)."""
        try:
            s = self.lvl.settings
        except wadkit.WadError:    # a gameplay that does not parse: none
            return
        if s is None:
            return
        for prop, field in SETTINGS_PROPS.items():
            v = s[field]
            root[prop] = list(v) if isinstance(v, (tuple, list, np.ndarray)) else v

    # ---- materials ---------------------------------------------------
    def _material(self, key: tuple, label: str, rgba, vertex_colors: bool):
        """One material per key; rgba None = flat light grey."""
        if key in self.mats:
            return self.mats[key]
        img = None
        if rgba is not None:
            img = self.created.add("images", materials.make_image(
                f"{self.name} {label}", np.asarray(rgba)))
        tk = materials.TexKey(key[-1] if img else -1, 0, None if img else (200, 200, 200))
        m = self.created.add("materials", materials.make_material(
            f"{self.name} {label}", tk, img, vertex_colors))
        self.mats[key] = m
        return m

    def _slots(self, textures: np.ndarray, make) -> tuple[list, np.ndarray]:
        """(materials, slot per face) for per-face texture numbers."""
        used, slot = np.unique(textures, return_inverse=True)
        return [make(int(t)) for t in used], slot.astype(np.int32).ravel()

    # ---- terrain -----------------------------------------------------
    def _tfrag_mesh(self, label: str, t: dict, kind: str, sub, chunk: int | None = None):
        tri = np.asarray(t["triangles"])
        keep = drop_degenerate(tri)
        tex = np.asarray(t["texture"], np.int32)[keep]
        images = self.lvl.tfrag_textures

        def make(ti):
            ok = 0 <= ti < len(images)
            return self._material(("tfrag", ti), f"tfrag {ti:03d}",
                                  images[ti] if ok else None, self.vertex_colors)

        mats, slots = self._slots(tex, make)
        cols = {materials.COLOR_ATTR: np.asarray(t["color"], np.float32)[keep]} \
            if self.vertex_colors else {}
        # RC2 file space is the game's, z-up like Blender (docs/formats/rc2.md):
        # positions are taken as they are
        me = build_mesh(label, np.asarray(t["positions"], np.float32),
                        tri[keep].astype(np.int32),
                        uv=convert.flip_v(np.asarray(t["uv"])[keep]), colors=cols,
                        material_index=slots,
                        face_int={ATTR_TEXTURE: tex,
                                  ATTR_PATCH: np.asarray(t["patch"], np.int32)[keep]})
        return self._object(label, me, mats, kind, sub, chunk)

    def _object(self, label: str, me, mats: list, kind: str, sub, chunk=None):
        """An object of mesh me (its material slots appended first), with
        its kind (and chunk), linked into sub."""
        for m in mats:
            me.materials.append(m)
        ob = self.created.mesh_object(label, me)
        ob[PROP_KIND] = kind
        if kind in ("sky", "chunk_terrain", "chunk_collision"):
            me[PROP_DIGEST] = digest(me)
        if chunk is not None:
            ob[PROP_CHUNK] = chunk
        sub.objects.link(ob)
        return ob

    def _terrain(self, sub) -> None:
        self.terrain = self.lvl.terrain(lod=self.lod)
        self._tfrag_mesh(f"{self.name} terrain", self.terrain, "terrain", sub)
        for ch in self._chunks():
            if ch.has_terrain:
                self._tfrag_mesh(f"{self.name} chunk{ch.index} terrain",
                                 ch.terrain(lod=self.lod), "chunk_terrain", sub, ch.index)

    def _chunks(self) -> list:
        try:
            return list(self.lvl.level_chunks)
        except wadkit.FormatError as e:
            self.notes.append(f"chunks: not imported: {e}")
            return []

    # ---- ties, shrubs, mobys -----------------------------------------
    def _ties(self, sub) -> None:
        self._instances("tie", sub)

    def _shrubs(self, sub) -> None:
        self._instances("shrub", sub)

    def _mobys(self, sub) -> None:
        self._instances("moby", sub)

    def _class_meshes(self, kind: str) -> dict:
        """{class index: bpy mesh} for every class with a mesh, all built
        in one build_meshes call; notes for the ones that do not decode."""
        geo = scene.class_geometry(self.lvl, kind, self.lod)
        images = self.lvl.textures(kind)
        for g in geo:
            if g.error is not None:
                self.notes.append(f"{g.name}: mesh not decoded ({g.error}); its "
                                  "instances are empties")
        geo = [g for g in geo if g.mesh is not None]
        if not geo:
            return {}
        pos, corners, uvs, texs, v_start, f_start = [], [], [], [], [0], [0]
        for g in geo:
            m = g.mesh
            tri = m["triangles"].astype(np.int64)
            keep = drop_degenerate(tri)
            tri = tri[keep]
            pos.append(m["positions"])
            corners.append(tri.reshape(-1) + v_start[-1])
            uvs.append(convert.flip_v(m["uv"][tri]).reshape(-1, 2))
            texs.append(m["texture"][keep])
            v_start.append(v_start[-1] + len(m["positions"]))
            f_start.append(f_start[-1] + len(tri))
        nf = f_start[-1]
        a = MeshArrays(np.concatenate(pos), v_start, np.concatenate(corners),
                       np.arange(0, 3 * nf + 1, 3), f_start)
        a.uv = np.concatenate(uvs)
        tex = np.concatenate(texs).astype(np.int32)
        a.face_int = {ATTR_TEXTURE: tex}
        slots, mat_lists = np.empty(nf, np.int32), []

        def make(ti):
            ok = 0 <= ti < len(images)
            return self._material((kind, ti), f"{kind} tex {ti:03d}" if ok else
                                  f"{kind} untextured", images[ti] if ok else None, False)

        for k, g in enumerate(geo):
            f0, f1 = f_start[k], f_start[k + 1]
            mats, slots[f0:f1] = self._slots(tex[f0:f1], make)
            mat_lists.append(mats)
        a.material_index = slots
        names = [f"{self.name} {g.name}" for g in geo]
        meshes = build_meshes(names, a, mat_lists)
        out = {}
        for g, me in zip(geo, meshes):
            self.created.add("meshes", me)
            me[PROP_KIND] = kind
            me[PROP_CLASS] = g.id
            me[PROP_DIGEST] = digest(me)
            out[g.index] = me
        return out

    def _class_collections(self, kind: str, meshes: dict) -> dict:
        """{class index: collection holding one object of the class mesh
        at the origin} for collection instances; the collections are
        children of the level's Classes collection (excluded from the view
        layer: the instances show them)."""
        if self.classes is None:
            self.classes = self.created.add("collections", bpy.data.collections.new(
                f"{self.name} Classes"))
            self.classes[PROP_PART] = "classes"
        out = {}
        for ci, me in meshes.items():
            label = me.name
            coll = self.created.add("collections", bpy.data.collections.new(label))
            ob = self.created.add("objects", bpy.data.objects.new(label, me))
            ob[PROP_KIND] = f"{kind}_class"
            ob[PROP_CLASS] = me[PROP_CLASS]
            coll.objects.link(ob)
            coll[PROP_KIND] = kind
            coll[PROP_CLASS] = me[PROP_CLASS]
            self.classes.children.link(coll)
            out[ci] = coll
        return out

    def _instances(self, kind: str, sub) -> None:
        """The class meshes (and collections) of the kind, and what each of
        its instance objects is to be (made by _instance_objects)."""
        inst = getattr(self.lvl, scene.INSTANCES[kind])
        n = len(inst)
        meshes = self._class_meshes(kind)
        colls = self._class_collections(kind, meshes) if self.instancing == "COLLECTION" \
            else None
        table = getattr(self.lvl, f"{kind}_classes")
        cls_of = scene.instance_classes(self.lvl, kind).tolist()
        cid_of = {ci: table[ci].id for ci in set(cls_of)}
        width = len(str(max(n - 1, 0)))
        # "tie 0042 c1234": instance number and class; short (Blender's
        # cost per new object grows with the name's length)
        names = [f"{kind} {i:0{width}d} c{cid_of[ci]}" for i, ci in enumerate(cls_of)]
        self.planned.append((kind, sub, inst, names, cls_of, cid_of, meshes, colls))

    def _instance_objects(self) -> None:
        """The instance objects of every kind, made in one creation_order
        (build.py: the cheapest for Blender's sorted insert), each kind's
        linked into its collection in instance order."""
        rows = [(p, i) for p in self.planned for i in range(len(p[3]))]
        made = [None] * len(rows)
        new, add = bpy.data.objects.new, self.created.add
        for k in creation_order([p[3][i] for p, i in rows]):
            (kind, _sub, _inst, names, cls_of, cid_of, meshes, colls), i = rows[k]
            ci = cls_of[i]
            ob = made[k] = add("objects", new(
                names[i], None if colls is not None else meshes.get(ci)))
            if ci not in meshes:
                ob.empty_display_type = "ARROWS"
            elif colls is not None:
                ob.instance_type = "COLLECTION"
                ob.instance_collection = colls[ci]
            ob[PROP_KIND] = kind
            ob[PROP_CLASS] = cid_of[ci]
            ob[PROP_INSTANCE] = i
        k = 0
        for _kind, sub, inst, names, *_ in self.planned:
            n = len(names)
            link = sub.objects.link
            for ob in made[k:k + n]:
                link(ob)
            k += n
            if not n:
                continue
            # the matrices for all at once, what setting matrix_world does
            # per object: matrix_basis (no parent: the world matrix), whose
            # setter decomposes each into location, rotation and scale, and
            # matrix_world itself (a foreach_set of it writes the world
            # matrix only, as it reads until the next evaluation).
            # Column-major
            flat = np.asarray(inst.matrix, np.float32).reshape(n, 4, 4).transpose(0, 2, 1)
            sub.objects.foreach_set("matrix_basis", flat.ravel())
            sub.objects.foreach_set("matrix_world", flat.ravel())

    # ---- sky ---------------------------------------------------------
    def _sky(self, sub) -> None:
        sky = self.lvl.sky()
        if not sky["shells"]:
            return
        t = self.terrain
        if t is None:
            try:
                t = self.lvl.terrain(lod=self.lod)
            except wadkit.FormatError:
                t = None
        lo, hi = scene.level_box(self.lvl, t)
        mat = scene.sky_transform(sky, lo, hi)
        images = sky["textures"]
        for k, sh in enumerate(sky["shells"]):
            tri = np.asarray(sh["triangles"], np.int64)
            keep = drop_degenerate(tri)
            tri = tri[keep]
            if not len(tri):
                continue
            tex = np.asarray(sh["texture"], np.int32)[keep]

            def make(ti):
                ok = 0 <= ti < len(images)
                return self._material(("sky", ti), f"sky {ti:02d}" if ok else "sky colour",
                                      images[ti] if ok else None, True)

            mats, slots = self._slots(tex, make)
            label = f"{self.name} sky shell {k}"
            me = build_mesh(label, np.asarray(sh["positions"], np.float32),
                            tri.astype(np.int32),
                            uv=convert.flip_v(np.asarray(sh["uv"], np.float32)[tri]),
                            colors={materials.COLOR_ATTR:
                                    np.asarray(sh["color"], np.float32)[tri]},
                            material_index=slots, face_int={ATTR_TEXTURE: tex})
            ob = self._object(label, me, mats, "sky", sub)
            ob.matrix_world = Matrix(mat.tolist())
            ob[PROP_SHELL] = k
            ob[PROP_SKY_SCALE] = float(mat[0, 0])

    # ---- collision ---------------------------------------------------
    def _collision(self, sub) -> None:
        sub.hide_render = True
        self._collision_mesh(f"{self.name} collision", self.lvl.collision(),
                             "collision", sub)
        for ch in self._chunks():
            if ch.has_collision:
                self._collision_mesh(f"{self.name} chunk{ch.index} collision",
                                     ch.collision(), "chunk_collision", sub, ch.index)

    def _collision_mesh(self, label: str, c: dict, kind: str, sub, chunk=None) -> None:
        pos, corners, sizes, tags, dropped = collision_faces(c)
        if not len(sizes):
            return
        if dropped:
            self.notes.append(f"{label}: {dropped} faces with fewer than three "
                              "distinct corners left out")
        mats, slots = self._slots(tags, self._tag_material)
        me = build_mesh(label, pos, corners, material_index=slots,
                        face_int={ATTR_TAG: tags}, face_sizes=sizes)
        self._object(label, me, mats, kind, sub, chunk).hide_render = True

    def _tag_material(self, tag: int):
        key = ("tag", tag)
        if key in self.mats:
            return self.mats[key]
        rgb = scene.tag_colour(tag)
        m = self.created.add("materials", bpy.data.materials.new(
            f"{self.name} coll {scene.tag_name(tag)}"))
        m.diffuse_color = (*rgb, 1.0)
        _by_type(_node_tree(m).nodes, "BSDF_PRINCIPLED").inputs[
            "Base Color"].default_value = (*rgb, 1.0)
        m[ATTR_TAG] = tag
        self.mats[key] = m
        return m

    # ---- world -------------------------------------------------------
    def _world(self, root) -> None:
        try:
            cols = scene.settings_colours(self.lvl.settings)
        except wadkit.WadError:
            return
        field = "background_colour" if cols["background"] else "fog_colour"
        rgb = cols["background"] or cols["fog"]
        if rgb is None:
            return
        lin = tuple(float(v) for v in
                    srgb_to_linear(np.array([*rgb, 1.0], np.float32))[:3])
        w = self.created.add("worlds", bpy.data.worlds.new(f"{self.name} world"))
        w.color = lin
        bg = _by_type(_node_tree(w).nodes, "BACKGROUND")
        bg.inputs["Color"].default_value = (*lin, 1.0)
        if cols["fog"] is not None:
            w["wadkit_fog_colour_display"] = list(cols["fog"])
        w[PROP_WORLD_FIELD] = field
        w[PROP_WORLD_RGB] = [int(round(v * 255)) for v in rgb]
        root[PROP_WORLD] = w
        s = self.lvl.settings
        w.mist_settings.start = max(0.0, float(s["fog_near_distance"]) / 1024.0)
        w.mist_settings.depth = max(0.0, float(s["fog_far_distance"] - s["fog_near_distance"])
                                    / 1024.0)
        self.context.scene.world = w
