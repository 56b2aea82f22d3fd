"""RC2 gameplay fixtures from the spec (docs/formats/rc2-gameplay.md, "Gameplay"),
plain Python + struct; never wadkit's C code.

A gameplay is a 0x9c-byte header of 39 s32 block offsets (0 = absent) and
the blocks. This module packs each decoded block from its fields (the field
names are the ones the docs list), lays blocks out as Wrench's writer does
(its order, 16-byte alignment, 0x40 before occlusion, none before the help
messages), or byte-exactly from given block bytes, and generates a level's
worth of instances with realistic statistics.

Matrices are given as 4x4 for column vectors (translation in m[:3][3]) and
stored column by column, the stored m[3][3] being the separate `matrix_w`.
"""
from __future__ import annotations

import math
import random
import struct

HEADER = 0x9C
NAMES = ("settings", "directional_lights", "cameras", "sound_instances",
         "help_us_english", "help_uk_english", "help_french", "help_german",
         "help_spanish", "help_italian", "help_japanese", "help_korean",
         "tie_classes", "tie_instances", "tie_groups", "shrub_classes",
         "shrub_instances", "shrub_groups", "moby_classes", "moby_instances",
         "moby_groups", "shared_data", "pvar_moby_links", "pvar_table",
         "pvar_data", "pvar_relative_pointers", "cuboids", "spheres",
         "cylinders", "pills", "paths", "grind_paths", "point_lights",
         "env_transitions", "cam_coll_grid", "env_sample_points", "occlusion",
         "tie_ambient_rgbas", "areas")
SLOT = {n: 4 * i for i, n in enumerate(NAMES)}
# The order Wrench's writer puts the blocks in (its GC block table).
WRENCH_ORDER = ("env_sample_points", "settings", "help_us_english",
                "help_uk_english", "help_french", "help_german", "help_spanish",
                "help_italian", "help_japanese", "help_korean",
                "directional_lights", "env_transitions", "cameras",
                "sound_instances", "moby_classes", "moby_instances", "pvar_table",
                "pvar_data", "pvar_moby_links", "pvar_relative_pointers",
                "moby_groups", "shared_data", "tie_classes", "tie_instances",
                "tie_ambient_rgbas", "tie_groups", "shrub_classes",
                "shrub_instances", "shrub_groups", "paths", "cuboids", "spheres",
                "cylinders", "pills", "cam_coll_grid", "point_lights",
                "grind_paths", "areas", "occlusion")

TIE, SHRUB, MOBY = 0x60, 0x70, 0x88
SETTINGS_FIRST = 0x5C
CHUNK_PLANE = 0x20


def stored_matrix(m, w) -> list[float]:
    """16 floats column by column; the last one is w, not m[3][3]."""
    out = [float(m[row][col]) for col in range(4) for row in range(4)]
    out[15] = float(w)
    return out


def tie_record(r: dict) -> bytes:
    return struct.pack("<4i16f4i", r["class_id"], r["draw_distance"], r["pad_8"],
                       r["occlusion_index"], *stored_matrix(r["matrix"], r["matrix_w"]),
                       r["directional_lights"], r["uid"], r["pad_58"], r["pad_5c"])


def shrub_record(r: dict) -> bytes:
    return struct.pack("<ifii16f3i5i", r["class_id"], r["draw_distance"],
                       r["unused_8"], r["unused_c"],
                       *stored_matrix(r["matrix"], r["matrix_w"]), *r["colour"],
                       r["unused_5c"], r["directional_lights"], r["unused_64"],
                       r["unused_68"], r["unused_6c"])


MOBY_INTS = ("size", "mission", "unknown_8", "unknown_c", "uid", "bolts",
             "unknown_18", "unknown_1c", "unknown_20", "unknown_24", "class_id")


def moby_record(r: dict) -> bytes:
    return struct.pack("<11if4i3f3f2if4i3i2i", *(r[k] for k in MOBY_INTS), r["scale"],
                       r["draw_distance"], r["update_distance"], r["unused_38"],
                       r["unused_3c"], *r["position"], *r["rotation"], r["group"],
                       r["is_rooted"], r["rooted_distance"], r["unknown_64"],
                       r["pvar_index"], r["occlusion"], r["mode_bits"],
                       *r["light_colour"], r["light"], r["unknown_84"])


RECORD = {"tie": tie_record, "shrub": shrub_record, "moby": moby_record}


def instance_block(kind: str, records: list[dict], header=None) -> bytes:
    """{count (moby: static count), 3 words (moby: spawnable count, 2 pad)}
    then the records."""
    h = list(header) if header is not None else [len(records), 0, 0, 0]
    h[0] = len(records)
    return struct.pack("<4i", *h) + b"".join(RECORD[kind](r) for r in records)


def class_list(ids) -> bytes:
    return struct.pack(f"<i{len(ids)}i", len(ids), *ids)


def settings_block(s: dict) -> bytes:
    first = struct.pack("<3i3i5fi3f3ffiiii", *s["background_colour"], *s["fog_colour"],
                        s["fog_near_distance"], s["fog_far_distance"],
                        s["fog_near_intensity"], s["fog_far_intensity"],
                        s["death_height"], s["is_spherical_world"], *s["sphere_centre"],
                        *s["ship_position"], s["ship_rotation_z"], s["ship_path"],
                        s["ship_camera_cuboid_start"], s["ship_camera_cuboid_end"],
                        s["pad_58"])
    assert len(first) == SETTINGS_FIRST
    planes = b"".join(struct.pack("<3fi3fi", *p["point"], p["count"], *p["normal"], p["pad"])
                      for p in s["chunk_plane_records"])
    return first + planes + struct.pack("<i", s["core_sounds_count"])


def chunk_planes(planes: list[tuple]) -> list[dict]:
    """Records for (point, normal) planes: each carries the count; none gives
    Wrench's lone all-zero terminator."""
    if not planes:
        return [{"point": (0.0, 0.0, 0.0), "count": 0, "normal": (0.0, 0.0, 0.0), "pad": 0}]
    return [{"point": p, "count": len(planes), "normal": n, "pad": 0} for p, n in planes]


def ambient_block(records: list[tuple[int, bytes]]) -> bytes:
    """(tie index, colour bytes: an even count) records, then s16 -1."""
    out = b""
    for index, data in records:
        assert len(data) % 2 == 0
        out += struct.pack("<hh", index, len(data) // 2) + data
    return out + struct.pack("<h", -1)


def layout(blocks: dict[str, bytes], order=WRENCH_ORDER) -> bytes:
    """Wrench's layout: blocks in `order` (absent ones skipped), each started
    at a 16-byte boundary (occlusion at 0x40, help messages unaligned)."""
    out = bytearray(HEADER)
    for name in order:
        if name not in blocks:
            continue
        align = 1 if name.startswith("help_") else 0x40 if name == "occlusion" else 0x10
        out += bytes(-len(out) % align)
        struct.pack_into("<i", out, SLOT[name], len(out))
        out += blocks[name]
    return bytes(out)


def exact(gap: bytes, blocks: list[tuple[str, bytes]]) -> bytes:
    """Header, `gap` bytes, then the blocks back to back in the given order
    (each its full bytes, padding included): the byte-exact layout."""
    out = bytearray(HEADER) + gap
    for name, data in blocks:
        struct.pack_into("<i", out, SLOT[name], len(out))
        out += data
    return bytes(out)


# ---- generated levels -------------------------------------------------------

def rotation(rz: float, ry: float = 0.0, rx: float = 0.0) -> list[list[float]]:
    """Rz Ry Rx (rotate about x first) as a 3x3."""
    cx, sx, cy, sy, cz, sz = (math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry),
                              math.cos(rz), math.sin(rz))
    return [[cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
            [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
            [-sy, cy * sx, cy * cx]]


def placement(rng: random.Random, spread: float) -> list[list[float]]:
    r = rotation(rng.uniform(-math.pi, math.pi), rng.gauss(0, 0.05), rng.gauss(0, 0.05))
    s = rng.choice((1.0, 1.0, 1.0, rng.uniform(0.5, 2.0)))
    t = [rng.uniform(-spread, spread), rng.uniform(-spread, spread), rng.uniform(-20, 60)]
    m = [[r[i][j] * s for j in range(3)] + [t[i]] for i in range(3)]
    return [[float(struct.unpack("<f", struct.pack("<f", v))[0]) for v in row]
            for row in m] + [[0.0, 0.0, 0.0, 1.0]]


def usage(rng: random.Random, classes: list[int], n: int) -> list[int]:
    """n class numbers, every class at least once, the rest Zipf-like."""
    weights = [1.0 / (k + 1) for k in range(len(classes))]
    picks = list(classes) + rng.choices(classes, weights, k=n - len(classes))
    rng.shuffle(picks)
    return picks


def f32(v: float) -> float:
    return struct.unpack("<f", struct.pack("<f", v))[0]


def generated(seed: int = 16, tie_classes: int = 40, ties: int = 2000,
              shrub_classes: int = 30, shrubs: int = 2000, moby_classes: int = 25,
              mobys: int = 200) -> dict:
    """A level's gameplay fields with realistic statistics, and its bytes in
    Wrench's layout: {"classes": {kind: class numbers of the core tables},
    "blocks": {name: bytes}, "ties"/"shrubs"/"mobys": records, "settings",
    "ambient": records, "class_lists", "gameplay": bytes}."""
    rng = random.Random(seed)
    pool = rng.sample(range(100, 4000), tie_classes + shrub_classes + moby_classes)
    cls = {"tie": pool[:tie_classes],
           "shrub": pool[tie_classes:tie_classes + shrub_classes],
           "moby": pool[tie_classes + shrub_classes:]}
    verts = {c: rng.randrange(24, 300) for c in cls["tie"]}
    tie_recs, ambient = [], []
    for i, c in enumerate(usage(rng, cls["tie"], ties)):
        tie_recs.append({"class_id": c, "draw_distance": rng.choice((0, 64, 120, 250)),
                         "pad_8": 0, "occlusion_index": i, "matrix": placement(rng, 600),
                         "matrix_w": rng.choice((0.01, 0.01, 0.01, 1.0)),
                         "directional_lights": rng.choice((0, 0x10, 0x21)),
                         "uid": 1000 + i, "pad_58": 0, "pad_5c": 0})
        if rng.random() < 0.6:
            ambient.append((i, bytes(rng.randrange(256) for _ in range(2 * verts[c]))))
    shrub_recs = [{"class_id": c, "draw_distance": f32(rng.choice((40.0, 80.0, 150.0))),
                   "unused_8": 0, "unused_c": 0, "matrix": placement(rng, 600),
                   "matrix_w": 0.01, "colour": [rng.randrange(256) for _ in range(3)],
                   "unused_5c": 0, "directional_lights": rng.choice((0, 1)),
                   "unused_64": 0, "unused_68": 0, "unused_6c": 0}
                  for c in usage(rng, cls["shrub"], shrubs)]
    moby_recs = []
    for i in range(mobys):
        moby_recs.append({
            "size": MOBY, "mission": rng.choice((-1, -1, 0, 3)), "unknown_8": 0,
            "unknown_c": 0, "uid": 1 + i, "bolts": rng.choice((0, 0, 5, 25)),
            "unknown_18": -1, "unknown_1c": 0, "unknown_20": 0, "unknown_24": 0,
            "class_id": rng.choice(cls["moby"][:-3]),    # a few classes unplaced
            "scale": f32(rng.choice((1.0, 1.0, 0.5, 2.5))),
            "draw_distance": rng.choice((64, 128, 255)), "update_distance": 128,
            "unused_38": 32, "unused_3c": 64,
            "position": [f32(rng.uniform(-500, 500)) for _ in range(3)],
            "rotation": [f32(rng.gauss(0, 0.1)), f32(rng.gauss(0, 0.1)),
                         f32(rng.uniform(-math.pi, math.pi))],
            "group": rng.choice((-1, -1, 0, 1)), "is_rooted": rng.choice((0, 1)),
            "rooted_distance": f32(rng.choice((0.0, 20.0))), "unknown_64": 1,
            "pvar_index": rng.choice((-1, i)), "occlusion": 0, "mode_bits": 0x101,
            "light_colour": [rng.choice((-1, 128)), 128, 128], "light": 0,
            "unknown_84": -1})
    settings = {
        "background_colour": [20, 30, 60], "fog_colour": [90, 100, 120],
        "fog_near_distance": 80.0 * 1024, "fog_far_distance": 400.0 * 1024,
        "fog_near_intensity": 255.0, "fog_far_intensity": 64.0,
        "death_height": -120.0, "is_spherical_world": 0,
        "sphere_centre": [0.0, 0.0, 0.0], "ship_position": [f32(12.5), -40.0, 3.0],
        "ship_rotation_z": f32(1.25), "ship_path": -1, "ship_camera_cuboid_start": 0,
        "ship_camera_cuboid_end": 0, "pad_58": 0,
        "chunk_plane_records": chunk_planes([((100.0, 0.0, 0.0), (1.0, 0.0, 0.0))]),
        "core_sounds_count": 12}
    lists = {"tie": distinct(r["class_id"] for r in tie_recs),
             "shrub": distinct(r["class_id"] for r in shrub_recs),
             "moby": list(cls["moby"])}
    blocks = {name: raw_block(rng, name) for name in NAMES}
    blocks.update({
        "settings": settings_block(settings),
        "tie_classes": class_list(lists["tie"]), "shrub_classes": class_list(lists["shrub"]),
        "moby_classes": class_list(lists["moby"]),
        "tie_instances": instance_block("tie", tie_recs),
        "shrub_instances": instance_block("shrub", shrub_recs),
        "moby_instances": instance_block("moby", moby_recs, (0, 7, 0, 0)),
        "tie_ambient_rgbas": ambient_block(ambient)})
    return {"classes": cls, "blocks": blocks, "ties": tie_recs, "shrubs": shrub_recs,
            "mobys": moby_recs, "settings": settings, "ambient": ambient,
            "class_lists": lists, "gameplay": layout(blocks)}


def distinct(values) -> list[int]:
    seen: dict[int, None] = {}
    for v in values:
        seen.setdefault(v, None)
    return list(seen)


def raw_block(rng: random.Random, name: str) -> bytes:
    """Stand-in bytes for a block wadkit keeps raw: an empty instance table
    or a few words."""
    if name.startswith("help_"):
        return struct.pack("<ii", 0, 8)
    return struct.pack("<4i", 0, 0, 0, 0) + bytes(rng.randrange(256)
                                                  for _ in range(rng.choice((0, 16, 40))))


def sample() -> dict:
    """A small gameplay's fields and blocks: three ties of two classes, two
    shrubs, two mobys, two ambient records, a raw camera block (their
    classes: rc2_core.SAMPLE_CLASSES)."""
    m = placement
    rng = random.Random(5)
    ties = [dict(class_id=c, draw_distance=50 + i, pad_8=0, occlusion_index=i,
                 matrix=m(rng, 10), matrix_w=w, directional_lights=i, uid=7 + i,
                 pad_58=0, pad_5c=0)
            for i, (c, w) in enumerate(((300, 0.01), (200, 1.0), (300, 0.5)))]
    shrubs = [dict(class_id=c, draw_distance=12.5, unused_8=0, unused_c=0,
                   matrix=m(rng, 10), matrix_w=0.01, colour=[i, 128, 255],
                   unused_5c=0, directional_lights=0, unused_64=0, unused_68=0,
                   unused_6c=0) for i, c in enumerate((40, 41))]
    mobys = []
    for i, (c, rot, scale) in enumerate(((9, (0.0, 0.0, math.pi / 2), 1.0),
                                         (8, (0.25, -0.5, 1.0), 2.0))):
        mobys.append(dict(size=0x88, mission=-1, unknown_8=0, unknown_c=0, uid=i,
                          bolts=10, unknown_18=0, unknown_1c=0, unknown_20=0,
                          unknown_24=0, class_id=c, scale=scale, draw_distance=100,
                          update_distance=128, unused_38=32, unused_3c=64,
                          position=[1.0 + i, 2.0, 3.0], rotation=list(map(f32, rot)),
                          group=-1, is_rooted=0, rooted_distance=0.0, unknown_64=1,
                          pvar_index=-1, occlusion=0, mode_bits=1,
                          light_colour=[-1, 0, 0], light=0, unknown_84=-1))
    settings = dict(background_colour=[1, 2, 3], fog_colour=[-1, 0, 0],
                    fog_near_distance=1024.0, fog_far_distance=2048.0,
                    fog_near_intensity=255.0, fog_far_intensity=0.0,
                    death_height=-50.0, is_spherical_world=1,
                    sphere_centre=[0.0, 0.0, -2187.0], ship_position=[1.0, 2.0, 3.0],
                    ship_rotation_z=0.5, ship_path=3, ship_camera_cuboid_start=4,
                    ship_camera_cuboid_end=5, pad_58=0,
                    chunk_plane_records=chunk_planes([((1.0, 2.0, 3.0), (0.0, 0.0, 1.0)),
                                                        ((4.0, 5.0, 6.0), (0.0, 1.0, 0.0))]),
                    core_sounds_count=9)
    blocks = {"settings": settings_block(settings),
              "tie_classes": class_list([300, 200]),
              "tie_instances": instance_block("tie", ties),
              "shrub_classes": class_list([40, 41]),
              "shrub_instances": instance_block("shrub", shrubs),
              "moby_classes": class_list([8, 9, 10]),
              "moby_instances": instance_block("moby", mobys, (0, 3, 0, 0)),
              "tie_ambient_rgbas": ambient_block([(2, b"\x01\x80\x02\x80"),
                                                    (0, b"\xff\x7f" * 3)]),
              "cameras": struct.pack("<4i", 0, 0, 0, 0)}
    return dict(ties=ties, shrubs=shrubs, mobys=mobys, settings=settings, blocks=blocks)
