"""Whole RC2 levels with everything a viewer draws, from the spec builders
(plain Python + struct, never wadkit's C code): tfrag terrain on a
heightfield, tie / shrub / moby classes with real meshes (shaped: prisms,
crossed-quad plants, domes) and textures of their own, their instances
standing on the ground, a sky of a textured dome and an untextured ring,
a heightfield collision of the same ground, and level settings.

    data, facts = world(patches=800, ties=2000, shrubs=2000, mobys=200,
                        collision_side=142)

facts says what a reader must find (counts, per-class triangles from the
class builders' own expected(), the heights). The statistics are
picked, not measured [assumed: no game file here]: shaped classes of
64..250 triangles for ties, 6..12 for shrubs, 16..60 for mobys.
"""
from __future__ import annotations

import math
import random
import struct

from . import rc2_collision as C
from . import rc2_core
from . import rc2_gameplay as G
from . import rc2_level as R
from . import rc2_moby as M
from . import rc2_shrub as S
from . import rc2_sky as K
from . import rc2_tie as TI
from . import tfrag as T

# a small level of every part, for the tests (ties > 256: gpu instancing)
SMALL = dict(patches=16, ties=300, shrubs=40, mobys=30, tie_classes=8, shrub_classes=6,
             moby_classes=10, collision_side=12)
QUAD = 5            # terrain patch: QUAD x QUAD quads of 1 m
N_TFRAG_TEX = 4
TEX_COUNTS = {"moby": 12, "tie": 16, "shrub": 8}


def height(x: float, y: float) -> float:
    """The ground (metres): the terrain's and the collision's."""
    return 1.5 * math.sin(x / 7.0) * math.cos(y / 9.0)


# ------------------------------------------------------------ terrain

def patch(px: int, py: int, texture: int) -> T.Patch:
    """QUAD x QUAD quads of 1 m at (px, py) m, QUAD strips; vertex colours
    shaded by the slope."""
    w = h = QUAD
    ox, oy = px * 1024, py * 1024
    pos, vinfo, rgba = [], [], []
    for y in range(h + 1):
        for x in range(w + 1):
            z = height(px + x, py + y)
            pos.append((x * 1024, y * 1024, round(z * 1024)))
            vinfo.append((x * 4096 // w, -y * 4096 // h, 4096, 2 * len(vinfo)))
            shade = 0x60 + round(24 * math.cos((px + x) / 5.0) * math.sin((py + y) / 4.0))
            rgba.append((shade, shade + 8, shade - 8, 0x80))
    runs, idx = [], []
    for y in range(h):
        for x in range(w + 1):
            idx += [y * (w + 1) + x, (y + 1) * (w + 1) + x]
        runs.append((2 * (w + 1), 0 if y == 0 else None))
    half = runs[:3]
    p = T.Patch(positions=pos, origin=(ox, oy, 0), vinfo=vinfo, rgba=rgba,
                adgifs=[texture], strips={0: runs, 1: half, 2: half[:1]},
                indices={0: idx, 1: idx[:sum(n for n, _ in half)], 2: idx[:2 * (w + 1)]})
    c = (px + w / 2, py + h / 2, 0.0)
    p.bsphere = (*c, math.hypot(w, h) / 2 + 2)
    return p


def terrain(n: int) -> tuple[list[T.Patch], tuple[float, float]]:
    side = max(1, math.ceil(math.sqrt(n)))
    patches = [patch((i % side) * QUAD, (i // side) * QUAD, i % N_TFRAG_TEX)
               for i in range(n)]
    return patches, (side * QUAD, math.ceil(n / side) * QUAD)


# ------------------------------------------------------------ classes

def tie_class(rnd: random.Random, o_class: int) -> TI.TieClass:
    """A prism of n sides and m rings (strips of 2(n+1) vertices per
    ring, one packet per ring) with a cap; slot 0 for the sides, 1 for
    the cap. LOD 1: every other ring; LOD 2: the first ring."""
    n, m = rnd.randint(6, 14), rnd.randint(3, 7)
    r0, tall = rnd.uniform(0.6, 2.5), rnd.uniform(2.0, 9.0)

    def ring(k: int, j: int) -> tuple:
        a = 2 * math.pi * j / n
        r = r0 * (1 - 0.6 * k / m)
        return (round(r * math.cos(a) * 1024), round(r * math.sin(a) * 1024),
                round(tall * k / m * 1024), round(4096 * j / n), round(4096 * k / m))

    packets = []
    for k in range(m):
        vs = []
        for j in range(n + 1):
            vs += [ring(k, j), ring(k + 1, j)]
        packets.append(TI.Packet([TI.Strip(vs, adgif=0)]))
    top = [ring(m, j) for j in range(n)]
    # a zig-zag strip over the top polygon: 0, 1, n-1, 2, n-2, ...
    fan = [top[0]] + [top[(j + 1) // 2] if j % 2 else top[n - j // 2] for j in range(1, n)]
    packets.append(TI.Packet([TI.Strip(fan, adgif=1)]))
    lods = [packets, packets[::2] + [packets[-1]], packets[:1]]
    return TI.TieClass(lods=lods, textures=2, scale=1.0, o_class=o_class,
                       bsphere=(0.0, 0.0, tall / 2, max(tall, r0)))


def shrub_class(rnd: random.Random, o_class: int) -> S.ShrubClass:
    """k vertical quads crossing at the centre (a plant), slot 0."""
    k, w, h = rnd.randint(3, 6), rnd.uniform(0.4, 1.2), rnd.uniform(0.5, 2.0)
    packets = []
    for i in range(k):
        a = math.pi * i / k
        dx, dy = round(w * math.cos(a) * 1024), round(w * math.sin(a) * 1024)
        top = round(h * 1024)
        nidx = (i * 5) % S.NORMALS
        quad = [(-dx, -dy, 0, 0, 4096, nidx), (dx, dy, 0, 4096, 4096, nidx),
                (-dx, -dy, top, 0, 0, nidx), (dx, dy, top, 4096, 0, nidx)]
        prims = [("texture", 0)] if i == 0 else []
        packets.append(prims + [("strip", quad)])
    return S.ShrubClass(packets, scale=1.0, o_class=o_class,
                        bsphere=(0.0, 0.0, h / 2, max(w, h)))


def moby_class(rnd: random.Random) -> M.MobyClass:
    """A dome on a (w+1) x (h+1) grid, one packet, slot 0 (high LOD) and
    the same at half the rows (low LOD)."""
    w, h = rnd.randint(3, 5), rnd.randint(2, 4)
    size = rnd.uniform(0.8, 2.0)

    def packet(rows: int) -> M.Packet:
        verts = []
        for y in range(rows + 1):
            for x in range(w + 1):
                u, v = x / w - 0.5, y / rows - 0.5
                z = max(0.0, 1 - 2 * (u * u + v * v)) * size
                verts.append((round(u * size * 1024), round(v * size * 1024),
                              round(z * 1024), (16 * x) & 0xFF, (8 * y) & 0xFF,
                              y * (w + 1) + x))
        strips = []
        for y in range(rows):
            row = []
            for x in range(w + 1):
                row += [y * (w + 1) + x, (y + 1) * (w + 1) + x]
            strips.append((0 if y == 0 else None, row))
        return M.Packet(verts, strips)

    return M.MobyClass(high=[packet(h)], low=[packet(max(1, h // 2))], scale=1.0,
                       bsphere=(0.0, 0.0, size / 2, size))


# ------------------------------------------------------------ textures

def palette(k: int) -> bytes:
    """256 RGBA32 of a colour ramp (PS2 alpha 0x80 = opaque); each palette
    a different hue."""
    base = [(0.9, 0.4, 0.2), (0.3, 0.7, 0.3), (0.5, 0.5, 0.9), (0.8, 0.8, 0.5),
            (0.6, 0.35, 0.2), (0.3, 0.6, 0.8)][k % 6]
    out = bytearray()
    for i in range(256):
        f = 0.35 + 0.65 * i / 255
        out += bytes([round(255 * c * f) for c in base] + [0x80])
    return bytes(out)


def pixels(k: int, w: int = 16, h: int = 16) -> bytes:
    """A checker-and-stripes pattern of 8-bit indices, different per k."""
    return bytes(((x // (2 + k % 3)) ^ (y // (2 + k % 2))) % 2 * 120 + (x * 7 + y * 3 * k) % 100
                 for y in range(h) for x in range(w))


# ------------------------------------------------------------ sky

def sky(radius: float = 30.0) -> bytes:
    """Two shells: a textured dome (16 segments x 5 rings, texture 0) and
    an untextured horizon ring whose ST records are RGBA gradients."""
    seg, rings = 16, 5
    r = radius * 1024
    verts, st, faces = [], [], []
    for k in range(rings + 1):
        el = math.pi / 2 * k / rings
        for j in range(seg + 1):
            a = 2 * math.pi * j / seg
            verts.append((round(r * math.cos(el) * math.cos(a)),
                          round(r * math.cos(el) * math.sin(a)),
                          round(r * math.sin(el)), 0x80))
            st.append((round(4096 * j / seg * 2), round(4096 * k / rings)))
    for k in range(rings):
        for j in range(seg):
            a, b = k * (seg + 1) + j, (k + 1) * (seg + 1) + j
            faces += [(a, b, a + 1, 0), (a + 1, b, b + 1, 0)]
    ring_v, ring_st, ring_f = [], [], []
    for j in range(seg + 1):
        a = 2 * math.pi * j / seg
        for z, col in ((-0.1, (200, 150, 110, 0x80)), (0.25, (120, 150, 220, 0x40))):
            ring_v.append((round(0.95 * r * math.cos(a)), round(0.95 * r * math.sin(a)),
                           round(z * r), 0x80))
            ring_st.append(col)
    for j in range(seg):
        a = 2 * j
        ring_f += [(a, a + 2, a + 1, 0xFF), (a + 1, a + 2, a + 3, 0xFF)]
    tex = (32, 16, pixels(5, 32, 16), palette(2))
    return K.block([(True, [(verts, st, faces)]), (False, [(ring_v, ring_st, ring_f)])],
                   textures=[tex], colour=(90, 120, 200, 0x80))


# ------------------------------------------------------------ collision

def collision(side: int, origin=(0, 0)) -> tuple[dict, int]:
    """side x side quads of 1 m on the ground, each in the 4 m octant of its
    first corner, tags by region. Returns (octants, face count)."""
    octs: dict = {}
    for j in range(side):
        for i in range(side):
            x0, y0 = origin[0] + i, origin[1] + j
            z0 = height(x0, y0)
            key = (x0 // 4, y0 // 4, math.floor(z0 / 4))
            verts, faces = octs.setdefault(key, ([], []))
            cx, cy, cz = 4 * key[0] + 2, 4 * key[1] + 2, 4 * key[2] + 2
            corner = []
            for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1)):
                x, y = x0 + dx, y0 + dy
                v = ((x - cx) * 16, (y - cy) * 16, round((height(x, y) - cz) * 64))
                if v not in verts:
                    verts.append(v)
                corner.append(verts.index(v))
            tag = 0x0F if (i // 20 + j // 20) % 3 else (0x07 if i < side // 2 else 0x04)
            faces.append((corner[2], corner[1], corner[0], corner[3], tag))
    return octs, side * side


# ------------------------------------------------------------ the level

def _place(rng: random.Random, box, spin: bool = True, scale: bool = False):
    x, y = rng.uniform(2, box[0] - 2), rng.uniform(2, box[1] - 2)
    rot = G.rotation(rng.uniform(-math.pi, math.pi) if spin else 0.0)
    s = rng.choice((1.0, 1.0, rng.uniform(0.6, 1.6))) if scale else 1.0
    m = [[G.f32(rot[i][j] * s) for j in range(3)] + [G.f32(t)]
         for i, t in enumerate((x, y, height(x, y) - 0.1))]
    return m + [[0.0, 0.0, 0.0, 1.0]]


def world(patches: int = 800, ties: int = 2000, shrubs: int = 2000, mobys: int = 200,
          tie_classes: int = 40, shrub_classes: int = 30, moby_classes: int = 25,
          collision_side: int = 142, seed: int = 16, compress=R.stored,
          with_sky: bool = True, edit_classes=None,
          collision_slack: int = 0) -> tuple[bytes, dict]:
    """edit_classes(builders): called with {kind: [class builders]} before
    they are written (to damage one, say). collision_slack: zero bytes
    after the collision block (room a rewritten block may grow into; this
    builder puts each face in one octant, wadkit's writer in every octant
    it touches)."""
    rng = random.Random(seed)
    pts, box = terrain(patches)
    g = G.generated(seed, tie_classes=tie_classes, ties=ties, shrub_classes=shrub_classes,
                    shrubs=shrubs, moby_classes=moby_classes, mobys=mobys)
    for r in g["ties"]:
        r["matrix"] = _place(rng, box, scale=True)
    for r in g["shrubs"]:
        r["matrix"] = _place(rng, box)
    for r in g["mobys"]:
        m = _place(rng, box)
        r["position"] = [m[0][3], m[1][3], m[2][3]]
        r["rotation"] = [0.0, 0.0, G.f32(rng.uniform(-math.pi, math.pi))]
    blocks = dict(g["blocks"])
    for kind, key in (("tie", "ties"), ("shrub", "shrubs")):
        blocks[f"{kind}_instances"] = G.instance_block(kind, g[key])
    blocks["moby_instances"] = G.instance_block("moby", g["mobys"], (0, 7, 0, 0))
    gameplay = G.layout(blocks)

    builders = {
        "tie": [tie_class(rng, c) for c in g["classes"]["tie"]],
        "shrub": [shrub_class(rng, c) for c in g["classes"]["shrub"]],
        "moby": [None if i % 9 == 4 else moby_class(rng)
                 for i, _ in enumerate(g["classes"]["moby"])]}
    if edit_classes is not None:
        edit_classes(builders)
    # class i of a kind: slot s names texture (i + s) % count of its table
    slots = {kind: [[(i + k) % TEX_COUNTS[kind] for k in range(2)] for i in range(len(ids))]
             for kind, ids in g["classes"].items()}
    specs = {kind: [rc2_core.ClassSpec(cid, None if b is None else b.bytes(), slots[kind][i])
                    for i, (cid, b) in enumerate(zip(ids, builders[kind]))]
             for kind, ids in g["classes"].items()}

    # textures: the tfrag table, then the class kinds', all 16x16 pixels
    # back to back at textures_base, one palette each in gs_ram
    order = [("tfrag", N_TFRAG_TEX)] + [(k, TEX_COUNTS[k]) for k in ("moby", "tie", "shrub")]
    texels, entries, pals = bytearray(), {}, bytearray()
    n_pal = 0
    for kind, n in order:
        entries[kind] = []
        for k in range(n):
            entries[kind].append(struct.pack("<ihhhhhh", len(texels), 16, 16, 1,
                                             n_pal, -1, -1))
            texels += pixels(n_pal)
            pals += palette(n_pal)
            n_pal += 1
    octants, n_faces = collision(collision_side)
    core, fields = R.core_parts(tfrags=T.block(pts), sky=sky() if with_sky else b"",
                                collision=C.block(octants) + bytes(collision_slack),
                                texels=bytes(texels))
    index_at = 0xC0 + 16 * N_TFRAG_TEX
    core, cfields, tables, offsets = rc2_core.with_classes(
        core, specs, TEX_COUNTS, index_at=index_at, texture_entries=entries)
    fields.update(cfields)
    fields.update({0x00: 1, 0x04: 0xBC, 0x30: N_TFRAG_TEX, 0x34: 0xC0})
    tail = bytes(4) + b"".join(entries["tfrag"]) + tables
    data, where = R.level(core=core, core_fields=fields, gameplay=gameplay,
                          index_tail=tail + bytes(max(0, 0x44 - len(tail))),
                          compress=compress, gs_ram=bytes(pals))
    facts = {
        "patches": patches, "terrain_triangles": sum(p.tris(0) for p in pts),
        "box": box, "ties": ties, "shrubs": shrubs, "mobys": mobys,
        "classes": g["classes"], "builders": builders, "slots": slots,
        "texture_counts": dict(TEX_COUNTS, tfrag=N_TFRAG_TEX),
        "class_triangles": {k: [None if b is None else
                                len((b.expected(0) if k == "tie" else b.expected())["triangles"])
                                for b in bs] for k, bs in builders.items()},
        "collision_faces": n_faces, "sky_shells": 2 if with_sky else 0,
        "gameplay": g, "where": where, "settings": g["settings"]}
    return data, facts
