"""The sample levels behind `wadkit demo` / `make demo`: made here from a
seed, no game data. All content is NumPy arrays; the files are written by
wadkit's own writers (ENG: TEXT pages via Level.set_page_rgba, geometry via
Level.with_geometry).

    island = eng_island(seed=1)        # mesh, collision, pages, texture table
    wad = build_eng_demo(seed=1)       # bytes of a level WAD (needs the writers)
"""
from __future__ import annotations

import struct

import numpy as np

GRID = 32              # cells per side
SUB = 4                # terrain quads per cell side
WATER_Y = -0.15        # water surface (file space y)
DEATH_Y = -2.75        # the fall/water plane under the island (as model 0 of originals)
PAGE = 256

# Texture table of the sample: (name, page, u0, v0, size, blend). Page 0 is
# 8-bit paletted, page 1 16-bit, page 2 RLE16.
TEXTURES = [
    ("grass", 0, 0, 0, 128, 0), ("sand", 0, 128, 0, 128, 0),
    ("rock", 0, 0, 128, 128, 0), ("dirt", 0, 128, 128, 128, 0),
    ("crate", 1, 0, 0, 128, 0), ("water", 1, 128, 0, 128, 1),
    ("stone", 1, 0, 128, 128, 0), ("plank", 1, 128, 128, 128, 0),
    ("leaves", 2, 0, 0, 128, 0), ("stripes", 2, 128, 0, 128, 0),
]
TEX = {name: i for i, (name, *_) in enumerate(TEXTURES)}
FLAT_RED = len(TEXTURES)          # a flat-colour entry after the table


# ---------------------------------------------------------------- noise

def _value_noise(rng: np.random.Generator, shape, cells: int) -> np.ndarray:
    """Smooth noise in 0..1 over shape (h, w): a cells×cells lattice of random
    values, bicubically (smoothstep) interpolated; tiles seamlessly."""
    h, w = shape
    lat = rng.random((cells, cells))
    y = np.arange(h) * cells / h
    x = np.arange(w) * cells / w
    y0, x0 = np.floor(y).astype(int), np.floor(x).astype(int)
    fy, fx = y - y0, x - x0
    fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)
    y1, x1 = (y0 + 1) % cells, (x0 + 1) % cells
    a = lat[np.ix_(y0, x0)] * (1 - fx) + lat[np.ix_(y0, x1)] * fx
    b = lat[np.ix_(y1, x0)] * (1 - fx) + lat[np.ix_(y1, x1)] * fx
    return a * (1 - fy[:, None]) + b * fy[:, None]


def _fbm(rng, shape, base=4, octaves=4) -> np.ndarray:
    out = np.zeros(shape)
    for k in range(octaves):
        out += _value_noise(rng, shape, base << k) / (1 << k)
    return out / sum(1 / (1 << k) for k in range(octaves))


# ---------------------------------------------------------------- textures

def _ramp(c0, c1, n):
    t = np.linspace(0, 1, n)[:, None]
    return np.round(np.array(c0) * (1 - t) + np.array(c1) * t).astype(np.uint8)


def palette_page(rng) -> tuple[np.ndarray, np.ndarray]:
    """Page 0 (8-bit): indices (256,256) u8 and its 256-colour RGBA palette:
    four 64-colour ramps (grass, sand, rock, dirt), one per quadrant."""
    ramps = [((30, 70, 20), (120, 190, 60)), ((170, 150, 100), (240, 225, 170)),
             ((70, 70, 75), (170, 165, 160)), ((80, 50, 25), (160, 110, 60))]
    pal = np.concatenate([_ramp(a, b, 64) for a, b in ramps])
    pal = np.concatenate([pal, np.full((256, 1), 255, np.uint8)], axis=1)
    idx = np.zeros((PAGE, PAGE), np.uint8)
    for q, (oy, ox) in enumerate([(0, 0), (0, 128), (128, 0), (128, 128)]):
        n = _fbm(rng, (128, 128), base=4 + 2 * q)
        idx[oy:oy + 128, ox:ox + 128] = q * 64 + np.clip(n * 64, 0, 63).astype(np.uint8)
    return idx, pal


def rgb16_page(rng) -> np.ndarray:
    """Page 1: crate, water (semi-transparent), stone, planks; RGBA."""
    img = np.zeros((PAGE, PAGE, 4), np.uint8)
    img[..., 3] = 255
    yy, xx = np.mgrid[0:128, 0:128]
    n = _fbm(rng, (128, 128), base=8)
    # crate: planks with a dark frame and a diagonal brace
    wood = (120 + 60 * n + 20 * np.sin(xx / 3.0)).clip(0, 255)
    frame = (np.minimum.reduce([xx, yy, 127 - xx, 127 - yy]) < 10) | (abs(xx - yy) < 7)
    crate = np.stack([wood, wood * 0.7, wood * 0.35], -1)
    crate[frame] *= 0.6
    img[:128, :128, :3] = crate
    # water: blue waves, alpha 128 (the semi-transparency bit)
    wave = 0.5 + 0.5 * np.sin((xx + 10 * n) / 6.0)
    img[:128, 128:, :3] = np.stack([20 + 30 * wave, 80 + 60 * wave, 160 + 80 * wave], -1)
    img[:128, 128:, 3] = 128
    # stone: cobbles from a cell pattern
    cx, cy = (xx // 16), (yy // 16 + (xx // 16) % 2 * 0.5).astype(int)
    edge = ((xx % 16) < 2) | (((yy + (xx // 16) % 2 * 8) % 16) < 2)
    stone = 110 + 80 * n + 20 * ((cx * 7 + cy * 3) % 5) / 5
    img[128:, :128, :3] = np.where(edge[..., None], 50, stone[..., None])
    # planks
    plank = 140 + 50 * n - 60 * ((yy % 32) < 3)
    img[128:, 128:, :3] = np.stack([plank, plank * 0.75, plank * 0.45], -1).clip(0, 255)
    return img


def rle16_page(rng) -> np.ndarray:
    """Page 2: leaves on a transparent background (cut-out) and flat stripes
    (long runs, what RLE16 is for); RGBA."""
    img = np.zeros((PAGE, PAGE, 4), np.uint8)
    yy, xx = np.mgrid[0:128, 0:128]
    n = _fbm(rng, (128, 128), base=6)
    blob = ((xx - 64) ** 2 + (yy - 64) ** 2) < (40 + 25 * n) ** 2
    img[:128, :128][blob] = (40, 120, 30, 255)
    img[:128, :128, 1][blob] = (90 + 100 * n[blob]).astype(np.uint8)
    stripes = (yy // 16) % 2 == 0
    img[:128, 128:] = np.where(stripes[..., None], (200, 40, 40, 255), (240, 230, 210, 255))
    return img


def rgba_to_abgr1555(rgba: np.ndarray) -> np.ndarray:
    """RGBA → ABGR1555 words as docs/formats/eng.md "TEXT" says: alpha 0 →
    0; alpha 1..254 sets bit 15; an opaque pixel that would be 0 becomes 1.
    Channels go to the nearest 5-bit value (v·31/255 rounded)."""
    c = (rgba[..., :3].astype(np.uint32) * 31 + 127) // 255   # nearest 5-bit
    w = c[..., 0] | (c[..., 1] << 5) | (c[..., 2] << 10)
    a = rgba[..., 3]
    w = np.where((a > 0) & (a < 255), w | 0x8000, w)
    w = np.where((a > 0) & (w == 0), 1, w)
    return np.where(a == 0, 0, w).astype("<u2")


# ---------------------------------------------------------------- chunks

def text_payload(pal_idx, pal_rgba, page1, page2) -> bytes:
    """A TEXT chunk: one palette, pages pal8 / rgb16 / rle16, the table
    (TEXTURES + one flat colour), no effects (count 0)."""
    words = rgba_to_abgr1555(pal_rgba[None])[0]
    out = struct.pack("<I", 1) + struct.pack("<II", 0, 256) + words.tobytes() + bytes(256)
    out += struct.pack("<I", 3)
    out += struct.pack("<III", 0, PAGE, PAGE) + pal_idx.tobytes()
    out += struct.pack("<III", 1, PAGE, PAGE) + rgba_to_abgr1555(page1).tobytes()
    # RLE16 stand-in (one colour), re-encoded from page2 by set_page_rgba;
    # repeat runs of at most 32,767 (0x8000 is read differently by sources)
    runs = struct.pack("<hH", -32767, 1) * 2 + struct.pack("<hH", -2, 1)
    out += struct.pack("<IIII", 0x80, PAGE, PAGE, len(runs)) + runs
    out += struct.pack("<I", len(TEXTURES) + 1)
    for name, page, u0, v0, size, blend in TEXTURES:
        pal = 0 if page == 0 else -1
        out += struct.pack("<Hbb4B", blend << 12, page, pal, u0, u0 + size - 1,
                           v0, v0 + size - 1)
    out += struct.pack("<Hbb4B", 0x0001, 1, -1, 220, 40, 40, 0)   # flat red
    return out + struct.pack("<I", 0)


def map_payload(w: int, h: int) -> bytes:
    """MAP with no tiles (with_geometry adds them): header, empty strat list,
    records and paths, the zone table (zone 0 sees everything), a zero zone
    grid, then the rest (n2 = n3 = 0, a u16) [assumed: the smallest rest
    the layout allows; the readers keep it opaque]."""
    out = struct.pack("<3I", 0, w, h) + struct.pack("<3I", 0, 0, 0)
    out += struct.pack("<Ii", 0xFFFFFFFF, 0) + struct.pack("<Ii", 0, 0) * 31
    out += bytes(4 * w * h)
    return out + struct.pack("<IIH", 0, 0, 0)


def base_wad(text: bytes, w: int = GRID, h: int = GRID) -> bytes:
    chunks = [("INFO", struct.pack("<I", 1)), ("WFPC", struct.pack("<I", 0)),
              ("TEXT", text), ("TRAK", struct.pack("<I", 0)),
              ("STPC", struct.pack("<II", 0, 0)), ("MAP ", map_payload(w, h)),
              ("END ", b"")]
    body = b"".join(t.encode()[::-1] + struct.pack("<I", len(p)) + p for t, p in chunks)
    return struct.pack("<I", 4 + len(body)) + body


# ---------------------------------------------------------------- island

def _quads(corners_pos, corners_uv, tex, color):
    """Quads (n,4,…), corners counter-clockwise seen from the front, UVs
    (0,0) (0,1) (1,1) (1,0) of the rectangle → triangles (2,0,1), (0,2,3)
    with their per-corner UVs and colours. These corner orders are the
    engine's own quad halves (face flags 0x800 and 0x810: export order
    (a,V1)(b,V1)(b,V0) and (b,V0)(a,V0)(a,V1), file order = export order
    (0,2,1)), so the writer fits them exactly."""
    tri = np.array([[2, 0, 1], [0, 2, 3]])
    pos = corners_pos[:, tri].reshape(-1, 3, 3)
    uv = corners_uv[:, tri].reshape(-1, 3, 2)
    col = color[:, tri].reshape(-1, 3, 4)
    return pos, uv, np.repeat(tex, 2), col


def _heights(rng, n):
    """Island heights on an (n+1)² lattice over [0, GRID]²."""
    t = np.linspace(0, GRID, n + 1)
    x, z = np.meshgrid(t, t)
    r = np.hypot(x - GRID / 2, z - GRID / 2) / (GRID * 0.42)
    hills = _fbm(rng, (n + 1, n + 1), base=3, octaves=4)
    h = (1.0 - r ** 2) * 2.2 + (hills - 0.5) * 2.5
    # the river: a sine-shaped valley across the island
    river_z = GRID / 2 + 4 * np.sin(x / 5.0)
    valley = np.exp(-((z - river_z) / 1.4) ** 2)
    h = h - valley * (h + 0.6).clip(0, None)
    return x, z, h


def _shade(normals):
    light = np.array([0.4, 0.8, 0.45])
    light /= np.linalg.norm(light)
    return np.clip(0.35 + 0.65 * (normals @ light), 0.2, 1.0)


def eng_island(seed: int = 1) -> dict:
    """The ENG sample's content: terrain, water, crates, ramps; per-corner
    UVs that are halves of texture rectangles, vertex-colour lighting;
    collision polygons (terrain, crates, ramps, and a per-cell death plane
    at y −2.75, material 0x1e). File space, y up, grid x,z in [0, GRID)."""
    rng = np.random.default_rng(seed)
    n = GRID * SUB
    x, z, h = _heights(rng, n)
    pos = np.stack([x, h, z], -1)
    # quads: corners (x,z) (x,z+1) (x+1,z+1) (x+1,z): counter-clockwise seen
    # from above in a right-handed y-up space, so the normals point up
    c = np.stack([pos[:-1, :-1], pos[1:, :-1], pos[1:, 1:], pos[:-1, 1:]], 2)
    c = c.reshape(-1, 4, 3)
    centre = c.mean(1)
    inside = np.hypot(centre[:, 0] - GRID / 2, centre[:, 2] - GRID / 2) < GRID * 0.47
    land = (centre[:, 1] > WATER_Y - 0.4) & inside
    c = c[land]
    e1, e2 = c[:, 2] - c[:, 0], c[:, 1] - c[:, 3]
    nrm = np.cross(e1, e2)
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
    nrm *= np.sign(nrm[:, 1:2])
    steep = nrm[:, 1] < 0.8
    hc = c[:, :, 1].mean(1)
    tex = np.where(steep, TEX["rock"],
                   np.where(hc < WATER_Y + 0.25, TEX["sand"],
                            np.where(hc > 1.6, TEX["dirt"], TEX["grass"])))
    # UVs: each quad shows a whole rectangle, V down the page
    uvq = np.array([[0, 0], [0, 1], [1, 1], [1, 0]], np.float32)
    uv = np.broadcast_to(uvq, (len(c), 4, 2))
    shade = _shade(nrm)[:, None] * (0.9 + 0.1 * np.clip(c[:, :, 1] / 3, -1, 1))
    col = np.concatenate([np.repeat(shade[..., None], 3, -1),
                          np.ones((len(c), 4, 1))], -1)
    parts = [_quads(c, uv, tex, col)]
    coll = [_quads(c, uv, tex, col)[0]]

    # water: one quad per cell where the terrain dips below the surface
    cells = np.stack(np.meshgrid(np.arange(GRID), np.arange(GRID)), -1).reshape(-1, 2)
    hmin = h[:-1:SUB, :-1:SUB]
    for k in range(SUB):
        for m in range(SUB):
            hmin = np.minimum(hmin, h[k:-1:SUB, m:-1:SUB][:GRID, :GRID])
    wet = cells[(hmin.reshape(-1) < WATER_Y)
                & (np.hypot(cells[:, 0] + .5 - GRID / 2, cells[:, 1] + .5 - GRID / 2)
                   < GRID * 0.47)]
    wq = np.stack([np.stack([wet[:, 0] + dx, np.full(len(wet), WATER_Y), wet[:, 1] + dz], -1)
                   for dx, dz in ((0, 0), (0, 1), (1, 1), (1, 0))], 1).astype(np.float64)
    wcol = np.ones((len(wet), 4, 4))
    wcol[..., :3] = 0.9
    parts.append(_quads(wq, np.broadcast_to(uvq, (len(wet), 4, 2)),
                        np.full(len(wet), TEX["water"]), wcol))

    # crates and ramps on land
    spots = rng.permutation(np.flatnonzero(land))
    placed = 0
    for q in spots:
        if placed >= 12:
            break
        cq = c[np.searchsorted(np.flatnonzero(land), q)]
        if cq[:, 1].min() < WATER_Y + 0.3 or np.ptp(cq[:, 1]) > 0.12:
            continue
        centre = cq.mean(0)
        if placed % 3 == 2:
            box = _ramp_mesh(centre)
        else:
            box = _box_mesh(centre, 0.45, TEX["crate"] if placed % 2 else TEX["plank"])
        parts.append(box)
        coll.append(box[0])
        placed += 1

    pos_t = np.concatenate([p[0] for p in parts]).astype(np.float32)
    out_pos = pos_t.reshape(-1, 3)
    texture = np.concatenate([p[2] for p in parts]).astype(np.int32)
    return {
        "positions": out_pos,
        "triangles": np.arange(len(out_pos), dtype=np.uint32).reshape(-1, 3),
        "uv": page_uv(np.concatenate([p[1] for p in parts]), texture),
        "texture": texture,
        "color": np.concatenate([p[3] for p in parts]).astype(np.float32),
        "collision": _collision(np.concatenate(coll)),
    }


def texture_rects() -> np.ndarray:
    """(n, 4) U0 V0 U1 V1 of TEXTURES in page units: U0 = u0/256,
    U1 = (u1+1)/256 (the spec's rectangle formula)."""
    return np.array([[u0 / 256, v0 / 256, (u0 + size) / 256, (v0 + size) / 256]
                     for _, _, u0, v0, size, _ in TEXTURES], np.float32)


def page_uv(unit_uv: np.ndarray, texture: np.ndarray) -> np.ndarray:
    """UVs in 0..1 of a texture's rectangle → UVs on its page."""
    r = texture_rects()[texture]
    lo, hi = r[:, None, :2], r[:, None, 2:]
    return (lo + unit_uv * (hi - lo)).astype(np.float32)


def _box_mesh(centre, half, tex):
    """An axis-aligned crate of side 2·half standing on centre: 5 faces."""
    x, y, z = centre
    s = half
    v = np.array([[x - s, y, z - s], [x + s, y, z - s], [x + s, y, z + s], [x - s, y, z + s],
                  [x - s, y + 2 * s, z - s], [x + s, y + 2 * s, z - s],
                  [x + s, y + 2 * s, z + s], [x - s, y + 2 * s, z + s]])
    # outward winding (counter-clockwise seen from outside, right-handed)
    faces = np.array([[4, 7, 6, 5], [0, 4, 5, 1], [1, 5, 6, 2], [2, 6, 7, 3], [3, 7, 4, 0]])
    q = v[faces]
    uv = np.broadcast_to(np.array([[0, 0], [0, 1], [1, 1], [1, 0]], np.float32), (5, 4, 2))
    shade = _shade(_normals(q))
    col = np.concatenate([np.repeat(shade[:, None, None], 4, 1).repeat(3, 2),
                          np.ones((5, 4, 1))], -1)
    return _quads(q, uv, np.full(5, tex), col)


def _ramp_mesh(centre):
    """A stone ramp 1 long, rising 0.5 toward +x, with its two sides."""
    x, y, z = centre
    top = np.array([[[x - .5, y, z - .4], [x - .5, y, z + .4],
                     [x + .5, y + .5, z + .4], [x + .5, y + .5, z - .4]]])
    back = np.array([[[x + .5, y, z - .4], [x + .5, y + .5, z - .4],
                      [x + .5, y + .5, z + .4], [x + .5, y, z + .4]]])
    q = np.concatenate([top, back])
    uv = np.broadcast_to(np.array([[0, 0], [0, 1], [1, 1], [1, 0]], np.float32), (2, 4, 2))
    shade = _shade(_normals(q))
    col = np.concatenate([np.repeat(shade[:, None, None], 4, 1).repeat(3, 2),
                          np.ones((2, 4, 1))], -1)
    return _quads(q, uv, np.full(2, TEX["stone"]), col)


def _normals(q):
    n = np.cross(q[:, 2] - q[:, 0], q[:, 3] - q[:, 1])
    return n / np.linalg.norm(n, axis=1, keepdims=True)


def _collision(tris) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, triangles, material): the solid triangles (material 0) and
    the death plane, one quad per cell split in two (material 0x1e)."""
    gx, gz = np.meshgrid(np.arange(GRID), np.arange(GRID))
    cx, cz = gx.ravel(), gz.ravel()
    q = np.stack([np.stack([cx + dx, np.full(cx.shape, DEATH_Y), cz + dz], -1)
                  for dx, dz in ((0, 0), (0, 1), (1, 1), (1, 0))], 1).astype(np.float64)
    # keep the far edges inside the grid: a corner on x = GRID would enter
    # the polygon into a cell outside it (the writer would grow the grid)
    q[..., [0, 2]] = np.minimum(q[..., [0, 2]], GRID - 1e-3)
    plane = q[:, [[0, 1, 2], [0, 2, 3]]].reshape(-1, 3, 3)
    allt = np.concatenate([tris, plane]).astype(np.float32)
    mat = np.concatenate([np.zeros(len(tris), np.int32),
                          np.full(len(plane), 0x1E, np.int32)])
    return (allt.reshape(-1, 3), np.arange(allt.shape[0] * 3, dtype=np.uint32).reshape(-1, 3),
            mat)


def textures(seed: int = 1) -> dict:
    """The three procedural pages: pal8 (indices + palette), rgb16, rle16."""
    rng = np.random.default_rng(seed + 1000)
    idx, pal = palette_page(rng)
    return {"pal8": (idx, pal), "rgb16": rgb16_page(rng), "rle16": rle16_page(rng)}


def build_eng_demo(seed: int = 1) -> bytes:
    """The ENG sample level as WAD bytes, written by wadkit's writers."""
    from . import eng
    tx = textures(seed)
    idx, pal = tx["pal8"]
    lvl = eng.from_bytes(base_wad(text_payload(idx, pal, tx["rgb16"], tx["rle16"])))
    if not hasattr(lvl, "with_geometry"):
        raise NotImplementedError("the ENG write path (with_geometry) is not "
                                  "built into this wadkit yet")
    lvl.set_page_rgba(2, tx["rle16"])
    isl = eng_island(seed)
    new = lvl.with_geometry(isl["positions"], isl["triangles"], isl["uv"],
                            isl["texture"], color=isl["color"],
                            collision=isl["collision"], zones="flat")
    return new.to_bytes()
