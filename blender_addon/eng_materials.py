"""Blender materials and images -> the level's TEXT, for the ENG export.

What a material stands for (the texture entries faces with it may use):
- a material the import made: the entries it recorded (one material per
  page, blend mode and flat colour), as long as its texel image is still
  that page's image;
- any other material: its image (the first Image Texture node with an
  image) and its blend mode (custom property wadkit_blend, else 0) — the
  entries of that page with that blend mode, or a new entry covering the
  page; an image that is no page of the level becomes a new page first
  (wadkit.LimitError when the TEXT is full: the export refuses, naming the
  object and material); a material without an image: a flat-colour entry of
  its base colour (as the colour picker shows it);
- a material that fits none of these (its base colour comes from other
  nodes, its image has no pixels) stands for nothing: the export names the
  object and the material.
The UVs of each face are then fitted to an entry of its material's page by
the core's fitter (an entry with that rectangle, or a new one).

Painting: a page image of the level that was painted (is_dirty, or its
pixels differ from the page) is written back into its page with
Level.set_page_rgba (the page's own kind: 8-bit pages take the nearest
colours of their palette, 16-bit pages keep bit 15 where a texel did not
change); what the encoder changed against the painted pixels is reported.

Everything here runs before the level's tiles are edited (the edit reads
the texture table once). docs/blender.md "Materials and texture entries"."""
from __future__ import annotations

import numpy as np

import wadkit

from .mesh_build import linear_to_srgb

PROP_PAGE = "wadkit_page"           # image (and the import's materials): page number
PROP_SOURCE = "wadkit_source"       # image: the level file its page is from
PROP_ENTRIES = "wadkit_textures"    # the import's materials: their entries
PROP_BLEND = "wadkit_blend"         # material: blend mode 0..7 (bits 12-14)
PROP_GROUND = "wadkit_collision_material"   # the import's ground materials
PAGE_SIDE = 256                     # UVs count in 1/256 of a page


class Refused(Exception):
    """The export cannot go on (nothing is written); the message names the
    object and material."""


def texel_image(mat):
    """The image a material shows: its node named "wadkit texel" (the
    import's), else its first Image Texture node with an image; None."""
    nt = getattr(mat, "node_tree", None)
    if nt is None:
        return None
    node = nt.nodes.get("wadkit texel")
    if node is not None and node.type == "TEX_IMAGE" and node.image is not None:
        return node.image
    for n in nt.nodes:
        if n.type == "TEX_IMAGE" and n.image is not None:
            return n.image
    return None


def image_rgba(img) -> np.ndarray:
    """(H, W, 4) uint8, row 0 at the top, as the page stores it; float
    images are taken from linear to display values."""
    w, h = img.size
    px = np.empty(w * h * 4, np.float32)
    img.pixels.foreach_get(px)
    px = px.reshape(h, w, 4)[::-1]
    if img.is_float:
        px = linear_to_srgb(px)
    return np.rint(np.clip(px, 0.0, 1.0) * 255.0).astype(np.uint8)


def _base_color(mat):
    """The display colour (3 bytes) of a material without an image, or a
    reason it has none."""
    nt = getattr(mat, "node_tree", None)
    if nt is not None:
        bsdf = next((n for n in nt.nodes if n.type == "BSDF_PRINCIPLED"), None)
        if bsdf is not None:
            sock = bsdf.inputs["Base Color"]
            if sock.is_linked:
                return None, "its base colour comes from nodes that are no image"
            rgb = sock.default_value[:3]
        else:
            rgb = mat.diffuse_color[:3]
    else:
        rgb = mat.diffuse_color[:3]
    srgb = linear_to_srgb(np.array([[*rgb, 1.0]], np.float32))[0, :3]
    return tuple(int(x) for x in np.rint(np.clip(srgb, 0, 1) * 255)), None


def _resample(rgba: np.ndarray, side: int) -> np.ndarray:
    """Nearest-texel resampling to side × side."""
    h, w = rgba.shape[:2]
    ys = (np.arange(side) * h) // side
    xs = (np.arange(side) * w) // side
    return rgba[ys][:, xs]


class TextEdits:
    """The TEXT changes one export makes, applied to lvl (Level.add_page,
    add_texture_entry, add_flat_entry, set_page_rgba) before lvl.edit()."""

    def __init__(self, lvl, source: str, notes: list):
        self.lvl, self.source, self.notes = lvl, source or "", notes
        self.has_text = "TEXT" in lvl
        self._entries: dict[int, list[int]] = {}      # material pointer -> entries
        self._page_of: dict[int, int] = {}            # image pointer -> page
        self.painted: list[int] = []
        self.new_pages: list[int] = []
        self.new_entries = 0

    @property
    def changed(self) -> bool:
        return bool(self.painted or self.new_pages or self.new_entries)

    def summary(self) -> list[str]:
        parts = []
        if self.painted:
            parts.append(f"pages {', '.join(map(str, self.painted))} painted")
        if self.new_pages:
            parts.append(f"{len(self.new_pages)} new pages from images")
        if self.new_entries:
            parts.append(f"{self.new_entries} texture entries for new materials")
        return parts

    # --- images of the level's pages ---

    def level_page(self, img) -> int | None:
        """The page an image is of this level (the import's page images)."""
        p = img.get(PROP_PAGE)
        if not isinstance(p, int) or img.get(PROP_SOURCE) != self.source or not self.has_text:
            return None
        pages = self.lvl.pages
        if not 0 <= p < len(pages):
            return None
        return p

    def paint(self, images) -> None:
        """Write painted page images back into their pages."""
        done: dict[int, str] = {}
        for img in images:
            p = self.level_page(img)
            if p is None or not (img.is_dirty or img.has_data):
                continue        # never loaded: it shows the page as imported
            page = self.lvl.pages[p]
            if tuple(img.size) != (page.width, page.height):
                self.notes.append(f"image {img.name!r} is {img.size[0]} × {img.size[1]}, "
                                  f"page {p} is {page.width} × {page.height}: not written "
                                  "back (scale it back to write its paint)")
                continue
            rgba = image_rgba(img)
            old = page.rgba
            if np.array_equal(rgba, old):
                continue
            if p in done:
                self.notes.append(f"images {done[p]!r} and {img.name!r} both hold page {p} "
                                  f"painted: {done[p]!r} is written")
                continue
            try:
                self.lvl.set_page_rgba(p, rgba)
            except wadkit.LimitError as e:
                raise Refused(f"image {img.name!r} (page {p}): {e}") from e
            done[p] = img.name
            self.painted.append(p)
            self._report_paint(img, p, page.kind, rgba, old)

    def _report_paint(self, img, p: int, kind: str, rgba, old) -> None:
        now = self.lvl.pages[p]
        got = now.rgba
        changed = (rgba != old).any(axis=2)
        diff = np.abs(got.astype(np.int16) - rgba.astype(np.int16))
        # 16-bit texels hold 5 bits a channel (up to 4/255 off: said, not
        # counted) and no partial alpha; 8-bit ones the palette's colours
        slack = 0 if kind == "pal8" else 4
        off = changed & ((diff[..., :3] > slack).any(axis=2) | (diff[..., 3] > 0))
        msg = (f"image {img.name!r}: {int(changed.sum())} painted texels written into "
               f"page {p} ({kind}")
        if now.kind != kind:
            msg += f", now stored as {now.kind}: RLE would be larger than raw"
        msg += ")" if kind == "pal8" else "; 5 bits per channel)"
        if off.any():
            why = ("the nearest colours of its palette" if kind == "pal8"
                   else "alpha is opaque or transparent, nothing between")
            msg += (f"; {int(off.sum())} of them differ from the paint as the page "
                    f"stores them ({why}; up to {int(diff[off].max())}/255 per channel)")
        self.notes.append(msg)

    def page_of(self, img, who: str) -> int:
        """The page an image is, adding it as a new page when it is none of
        the level's. who: "object 'X', material 'M'" for a refusal."""
        k = img.as_pointer()
        if k in self._page_of:
            return self._page_of[k]
        p = self.level_page(img)
        if p is None:
            if not self.has_text:
                raise Refused(f"{who}: the level has no TEXT chunk for image {img.name!r}")
            w, h = img.size
            if w == 0 or h == 0:
                raise Refused(f"{who}: image {img.name!r} has no pixels (is its file missing?)")
            rgba = image_rgba(img)
            if (w, h) != (PAGE_SIDE, PAGE_SIDE):
                rgba = _resample(rgba, PAGE_SIDE)
                self.notes.append(f"image {img.name!r} is {w} × {h}: scaled to "
                                  f"{PAGE_SIDE} × {PAGE_SIDE} (nearest texel) for its new "
                                  "page (texture UVs count in 1/256 of a page)")
            try:
                p = self.lvl.add_page(rgba)
            except wadkit.LimitError as e:
                raise Refused(f"{who}: image {img.name!r} needs a new texture page: {e}") from e
            self.new_pages.append(p)
            self.notes.append(f"image {img.name!r} became texture page {p} "
                              f"({self.lvl.pages[p].kind})")
        self._page_of[k] = p
        return p

    # --- materials ---

    def is_import_material(self, mat) -> bool:
        """A material the import made, still showing its own page."""
        if mat is None or PROP_ENTRIES not in mat:
            return False
        img = texel_image(mat)
        if img is None:
            return True                 # flat colour (or a page the level lacks)
        p = self.level_page(img)
        return p is not None and p == mat.get(PROP_PAGE)

    def resolve(self, mat, who: str) -> None:
        """Find (or add) the entries a user's material stands for."""
        k = mat.as_pointer()
        if k in self._entries or self.is_import_material(mat):
            return
        if not self.has_text:
            self._entries[k] = []
            self.notes.append(f"{who}: the level has no TEXT chunk, so no material "
                              "can be mapped to a texture entry")
            return
        blend = mat.get(PROP_BLEND)
        blend = blend if isinstance(blend, int) and 0 <= blend <= 7 else 0
        t = self.lvl.textures
        img = texel_image(mat)
        if img is not None:
            p = self.page_of(img, who)
            t = self.lvl.textures
            hit = np.flatnonzero((t["page"] == p) & (t["blend"] == blend) & ~t["flat"])
            if not len(hit):
                pg = self.lvl.pages[p]
                pal = pg.palette if pg.kind == "pal8" and pg.palette is not None else -1
                hit = [self.lvl.add_texture_entry(p, (0, 0, 255, 255), flags=blend << 12,
                                                  palette=pal)]
                self.new_entries += 1
        else:
            rgb, why = _base_color(mat)
            if rgb is None:
                self._entries[k] = []
                self.notes.append(f"{who}: {why}: it stands for no texture entry")
                return
            hit = np.flatnonzero(t["flat"] & (t["blend"] == blend)
                                 & (t["color"] == np.array(rgb, np.uint8)).all(axis=1))
            if not len(hit):
                hit = [self.lvl.add_flat_entry(rgb, flags=blend << 12)]
                self.new_entries += 1
            self.notes.append(f"{who} has no image: its faces get the flat colour "
                              f"{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x} (texture entry {hit[0]})")
        self._entries[k] = [int(x) for x in hit]

    def entries_of(self, mat):
        """The entries a material stands for (None: the import's own)."""
        if mat is None:
            return None
        return self._entries.get(mat.as_pointer())

    def prepare(self, objects) -> None:
        """Paint and resolve for the level's objects: the level's page
        images that were painted are written back, and every material that
        faces of these objects use and the import did not make is resolved.
        Looks at bpy.data's images and materials first (a few dozen), at the
        objects only when a material of the user's is in the file, and then
        only at those whose mesh or slots hold it."""
        import bpy
        self.paint([img for img in bpy.data.images if PROP_PAGE in img])
        mats = {m.as_pointer(): m for m in bpy.data.materials
                if m.users and PROP_GROUND not in m and not self.is_import_material(m)}
        if not mats:
            return
        # only objects whose mesh (or whose own slots) use one of them: one
        # bpy.data.user_map call instead of a look at every object's slots
        users = bpy.data.user_map(subset=list(mats.values()), value_types={"MESH", "OBJECT"})
        holders = {u.as_pointer() for us in users.values() for u in us}
        if not holders:
            return
        used = _used_materials([o for o in objects if o.type == "MESH" and (
            o.data.as_pointer() in holders or o.as_pointer() in holders)], set(mats))
        for k, m in mats.items():
            if k in used:
                self.resolve(m, f"object {used[k].name!r}, material {m.name!r}")


def _used_materials(objects, wanted: set) -> dict:
    """{material pointer: the first object whose faces use it} for the
    materials in wanted."""
    out: dict[int, object] = {}
    for ob in objects:
        slots = [s.material for s in ob.material_slots]
        if not any(m is not None and m.as_pointer() in wanted for m in slots):
            continue
        me = ob.data
        mi = np.zeros(len(me.polygons), np.int32)
        if len(mi):
            me.polygons.foreach_get("material_index", mi)
        for s in np.unique(np.clip(mi, 0, max(len(slots) - 1, 0))).tolist() if len(mi) else []:
            m = slots[s] if s < len(slots) else None
            if m is not None and m.as_pointer() in wanted:
                out.setdefault(m.as_pointer(), ob)
    return out
