"""Plain readers of RC2 level files written from the spec
(docs/formats/rc2.md), plain Python + struct, to check what wadkit writes
without wadkit's C code: the container (extents, data sections, core
header), the gameplay blocks (settings, class lists, instance records,
ambient records, groups) and the tfrag patches (every LOD, the stored
lists). Streams are decoded with builders.wadlz.decompress."""
from __future__ import annotations

import struct

from . import wadlz
from .rc2_gameplay import HEADER as GP_HEADER, MOBY_INTS, NAMES, SLOT

SECTOR = 2048
SLOTS_60 = {"data": 0x10, "sound_bank": 0x18, "gameplay": 0x20, "occlusion": 0x28,
            "chunk0": 0x30, "chunk1": 0x38, "chunk2": 0x40}
SLOTS_68 = {"data": 0x0C, "sound_bank": 0x14, "gameplay": 0x1C, "gameplay_pal": 0x24,
            "occlusion": 0x2C, "chunk0": 0x34, "chunk1": 0x3C, "chunk2": 0x44}
SECTIONS = ("overlay", "core_index", "gs_ram", "hud_header", "hud_bank0", "hud_bank1",
            "hud_bank2", "hud_bank3", "hud_bank4", "core_data", "transition_textures")


# ---- container ----------------------------------------------------------------

def level(data: bytes) -> dict:
    """{"header_size", "extents": {name: (byte offset, byte size)}, "sections":
    {name: (file offset, size)}, "core": core header s32 words, "core_data",
    "gameplay", "gameplay_pal" (decoded, None when absent), "streams": the
    raw WAD-LZ streams}."""
    hsize = struct.unpack_from("<i", data, 0)[0]
    slots = SLOTS_60 if hsize == 0x60 else SLOTS_68
    ext = {}
    for name, at in slots.items():
        sec, cnt = struct.unpack_from("<ii", data, at)
        if cnt:
            ext[name] = (sec * SECTOR, cnt * SECTOR)
    d0 = ext["data"][0]
    sections = {}
    for i, name in enumerate(SECTIONS):
        off, size = struct.unpack_from("<ii", data, d0 + 8 * i)
        if size:
            sections[name] = (d0 + off, size)
    ci = sections["core_index"][0]
    core = struct.unpack_from("<47i", data, ci)
    streams = {}
    off, size = sections["core_data"]
    streams["core_data"] = data[off:off + size]
    for name in ("gameplay", "gameplay_pal"):
        if name in ext:
            off, size = ext[name]
            streams[name] = data[off:off + size]
    out = {"header_size": hsize, "extents": ext, "sections": sections, "core": core,
           "streams": streams}
    for name, s in streams.items():
        n = struct.unpack_from("<i", s, 3)[0]
        out[name] = wadlz.decompress(s[:n])
    out.setdefault("gameplay_pal", None)
    return out


def core_field(core, offset: int) -> int:
    return core[offset // 4]


# ---- gameplay -----------------------------------------------------------------

def _matrix(floats) -> tuple[list[list[float]], float]:
    """16 floats column by column -> (4x4 for column vectors with m[3][3]
    = 1, the stored w)."""
    m = [[floats[4 * col + row] for col in range(4)] for row in range(4)]
    w = m[3][3]
    m[3][3] = 1.0
    return m, w


def tie_record(b: bytes) -> dict:
    v = struct.unpack("<4i16f4i", b)
    m, w = _matrix(v[4:20])
    return dict(class_id=v[0], draw_distance=v[1], pad_8=v[2], occlusion_index=v[3],
                matrix=m, matrix_w=w, directional_lights=v[20], uid=v[21],
                pad_58=v[22], pad_5c=v[23])


def shrub_record(b: bytes) -> dict:
    v = struct.unpack("<ifii16f3i5i", b)
    m, w = _matrix(v[4:20])
    return dict(class_id=v[0], draw_distance=v[1], unused_8=v[2], unused_c=v[3],
                matrix=m, matrix_w=w, colour=list(v[20:23]), unused_5c=v[23],
                directional_lights=v[24], unused_64=v[25], unused_68=v[26],
                unused_6c=v[27])


def moby_record(b: bytes) -> dict:
    v = struct.unpack("<11if4i3f3f2if4i3i2i", b)
    r = dict(zip(MOBY_INTS, v[:11]))
    r.update(scale=v[11], draw_distance=v[12], update_distance=v[13], unused_38=v[14],
             unused_3c=v[15], position=list(v[16:19]), rotation=list(v[19:22]),
             group=v[22], is_rooted=v[23], rooted_distance=v[24], unknown_64=v[25],
             pvar_index=v[26], occlusion=v[27], mode_bits=v[28],
             light_colour=list(v[29:32]), light=v[32], unknown_84=v[33])
    return r


RECORDS = {"tie": (0x60, tie_record), "shrub": (0x70, shrub_record),
           "moby": (0x88, moby_record)}


def gameplay(gp: bytes) -> dict:
    """{"offsets": {block: offset}, "settings", "class_lists", "ties",
    "shrubs", "mobys" (records), "headers" (instance block headers),
    "ambient" [(tie, bytes)], "groups": {kind: [[members]] or None}}."""
    offs = {n: struct.unpack_from("<i", gp, SLOT[n])[0] for n in NAMES}
    out = {"offsets": offs}
    at = offs["settings"]
    if at:
        v = struct.unpack_from("<3i3i5fi3f3ffiiii", gp, at)
        names = ("fog_near_distance", "fog_far_distance", "fog_near_intensity",
                 "fog_far_intensity", "death_height")
        s = dict(background_colour=list(v[0:3]), fog_colour=list(v[3:6]),
                 **dict(zip(names, v[6:11])), is_spherical_world=v[11],
                 sphere_centre=list(v[12:15]), ship_position=list(v[15:18]),
                 ship_rotation_z=v[18], ship_path=v[19], ship_camera_cuboid_start=v[20],
                 ship_camera_cuboid_end=v[21], pad_58=v[22])
        n = max(1, struct.unpack_from("<i", gp, at + 0x5C + 0x0C)[0])
        s["chunk_planes"] = [struct.unpack_from("<3fi3fi", gp, at + 0x5C + 0x20 * k)
                             for k in range(n)]
        s["core_sounds_count"] = struct.unpack_from("<i", gp, at + 0x5C + 0x20 * n)[0]
        out["settings"] = s
    else:
        out["settings"] = None
    out["class_lists"] = {}
    for kind in ("tie", "shrub", "moby"):
        at = offs[f"{kind}_classes"]
        if at:
            n = struct.unpack_from("<i", gp, at)[0]
            out["class_lists"][kind] = list(struct.unpack_from(f"<{n}i", gp, at + 4))
        else:
            out["class_lists"][kind] = None
    out["headers"] = {}
    for kind, (size, rec) in RECORDS.items():
        at = offs[f"{kind}_instances"]
        if not at:
            out[kind + "s"], out["headers"][kind] = [], None
            continue
        h = struct.unpack_from("<4i", gp, at)
        out["headers"][kind] = h
        out[kind + "s"] = [rec(gp[at + 16 + size * i:at + 16 + size * (i + 1)])
                           for i in range(h[0])]
    at = offs["tie_ambient_rgbas"]
    amb = []
    while at:
        idx, words = struct.unpack_from("<hh", gp, at)
        if idx == -1:
            break
        amb.append((idx, gp[at + 4:at + 4 + 2 * words]))
        at += 4 + 2 * words
    out["ambient"] = amb if offs["tie_ambient_rgbas"] else None
    out["groups"] = {k: groups(gp, offs[f"{k}_groups"]) for k in ("tie", "shrub", "moby")}
    return out


def groups(gp: bytes, at: int):
    """Wrench's group block: {count, data size, 2 pad}, count s32 byte
    offsets (-1 = empty), the u16 members 16-aligned, bit 15 ends a group."""
    if not at:
        return None
    count = struct.unpack_from("<i", gp, at)[0]
    data = at + (0x10 + 4 * count + 15) // 16 * 16
    out = []
    for g in range(count):
        p = struct.unpack_from("<i", gp, at + 0x10 + 4 * g)[0]
        members = []
        while p >= 0:
            v = struct.unpack_from("<H", gp, data + p)[0]
            members.append(v & 0x7FFF)
            p += 2
            if v & 0x8000:
                break
        out.append(members)
    return out


def group_block(groups_: list[list[int]]) -> bytes:
    """The builder side of groups(): Wrench's layout."""
    members = b""
    ptrs = []
    for g in groups_:
        if not g:
            ptrs.append(-1)
            continue
        ptrs.append(len(members))
        members += b"".join(struct.pack("<H", v | (0x8000 if k == len(g) - 1 else 0))
                            for k, v in enumerate(g))
    members += bytes(-len(members) % 16)
    head = struct.pack("<4i", len(groups_), len(members), 0, 0) + struct.pack(
        f"<{len(ptrs)}i", *ptrs)
    return head + bytes(-len(head) % 16) + members


# ---- tfrags -------------------------------------------------------------------

def _codes(b: bytes, start: int, end: int):
    pos = start
    while pos < end:
        (word,) = struct.unpack_from("<I", b, pos)
        pos += 4
        imm, num, cmd = word & 0xFFFF, (word >> 16) & 0xFF, (word >> 24) & 0x7F
        if cmd & 0x60 == 0x60:
            vn, vl = (cmd >> 2) & 3, cmd & 3
            size = ((num or 256) * (((32 >> vl) * (vn + 1)) // 8) + 3) & ~3
        else:
            size = {0x30: 16, 0x31: 16, 0x20: 4}.get(cmd, 0)
            if cmd == 0x4A:
                size = (num or 256) * 8
            elif cmd in (0x50, 0x51):
                size = (imm or 65536) * 16
        yield cmd, imm, num, pos, size
        pos += size


def patches(block: bytes) -> list[dict]:
    """Every patch: header fields, positions per tier (file units), vertex
    infos, colours, ad-gif textures, strips and indices per LOD."""
    table, count = struct.unpack_from("<ii", block, 0)
    out = []
    for i in range(count):
        h = table + 0x40 * i
        data = table + struct.unpack_from("<i", block, h + 0x10)[0]
        ofs = struct.unpack_from("<6H", block, h + 0x14)
        lod2, shared, lod1, lod01, _tex, rgba = ofs
        lod0 = shared + block[h + 0x22] * 16
        bounds = [(lod2, shared), (shared, lod1), (lod1, lod01), (lod01, lod0), (lod0, rgba)]
        vu = None
        for cmd, imm, num, at, size in _codes(block, data + shared, data + lod1):
            if cmd == 0x6D and imm & 0x3FF == 0 and imm >> 14 & 1:
                vu = struct.unpack_from("<20H", block, at)
                break
        row = [0, 0, 0, 0]
        p = {"index": i, "bsphere": struct.unpack_from("<4f", block, h),
             "vert_count": block[h + 0x3C], "tri_count": block[h + 0x3D],
             "data": data, "header": block[h:h + 0x40],
             "pos": {}, "vinfo": {}, "strips": {}, "indices": {}, "adgifs": []}
        tier = {1: 0, 3: 1, 4: 2}
        lod = {0: 2, 2: 1, 4: 0}
        for lst, (a, b) in enumerate(bounds):
            for cmd, imm, num, at, size in _codes(block, data + a, data + b):
                if cmd == 0x30:
                    row = list(struct.unpack_from("<4i", block, at))
                if cmd & 0x60 != 0x60:
                    continue
                vn, vl, n, addr = (cmd >> 2) & 3, cmd & 3, num or 256, imm & 0x3FF
                if lst == 1 and (vn, vl) == (3, 1) and addr == 0 and imm >> 14 & 1:
                    continue
                if (vn, vl) == (3, 0):
                    p["adgifs"] = [struct.unpack_from("<i", block, at + 80 * k)[0]
                                   for k in range(n // 5)]
                elif (vn, vl) == (2, 1):
                    p["pos"][tier[lst]] = [tuple((c + o) / 1024.0 for c, o in zip(v, row))
                                           for v in struct.iter_unpack("<3h", block[at:at + 6 * n])]
                elif (vn, vl) == (3, 1):
                    p["vinfo"][tier[lst]] = list(struct.iter_unpack("<4h", block[at:at + 8 * n]))
                elif (vn, vl) == (3, 2) and lst in lod:
                    if addr == vu[18]:
                        p["strips"][lod[lst]] = list(struct.iter_unpack("<bbbb", block[at:at + 4 * n]))
                    elif addr == vu[13]:
                        p["indices"][lod[lst]] = block[at:at + 4 * n]
        p["positions"] = sum((p["pos"].get(t, []) for t in range(3)), [])
        p["rgba"] = block[data + rgba:data + rgba + 16 * block[h + 0x29]]
        out.append(p)
    return out


def triangles(p: dict, lod: int = 0) -> list[dict]:
    """A patch's triangles of one LOD by the rule: only a biased record
    (count < 0) with an offset >= 0 binds an ad-gif; every other strip
    triangle is wound backwards."""
    vinfo = sum((p["vinfo"].get(t, []) for t in range(3 if lod == 0 else 2 if lod == 1 else 1)), [])
    idx, k, ad, out = p["indices"][lod], 0, None, []
    for raw, _flag, off, _pad in p["strips"][lod]:
        if raw == 0:
            break
        n = raw + 128 if raw < 0 else raw
        if raw < 0 and off >= 0:
            ad = off // 5
        for j in range(n - 2):
            c = [idx[k + j], idx[k + j + 1], idx[k + j + 2]]
            if j & 1:
                c[0], c[1] = c[1], c[0]
            vi = [vinfo[v] for v in c]
            out.append({"positions": [p["positions"][v[3] // 2] for v in vi],
                        "uv": [tuple(s / (8192.0 if s < 0 else 4096.0) for s in v[:2])
                               for v in vi],
                        "color": [tuple(x / 128.0 for x in p["rgba"][4 * (v[3] // 2):
                                                                    4 * (v[3] // 2) + 4])
                                  for v in vi],
                        "texture": p["adgifs"][ad]})
        k += n
    return out
