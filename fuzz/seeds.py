"""Write the seed corpora of the fuzz harnesses from the test fixtures'
from-spec builders (tests/builders): `python fuzz/seeds.py OUTDIR`.

One function per harness (named as fuzz/fuzz_<name>.c) returning a dict
{seed name: bytes}. A new harness adds a function and a SEEDS entry."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import struct  # noqa: E402

from builders import eng_collision as C  # noqa: E402
from builders import eng_level as L  # noqa: E402
from builders import eng_terrain as ET  # noqa: E402
from builders import eng_text as T  # noqa: E402
from builders import eng_wad as eng  # noqa: E402
from builders import rc2_level as R  # noqa: E402
from builders import rc2_moby as MO  # noqa: E402
from builders import rc2_shrub as SH  # noqa: E402
from builders import rc2_tie as TI  # noqa: E402
from builders import tfrag as TF  # noqa: E402
from builders import wadlz as LZ  # noqa: E402


def eng_wad_seeds() -> dict[str, bytes]:
    info = eng.info_payload()
    return {
        "sample": eng.sample_wad(),
        "minimal": eng.wad([]),
        "info_only": eng.wad([("INFO", info)]),
        "map_quirk": eng.wad([("INFO", info), ("MAP", b"\x11" * 20),
                              ("STPC", b"\x22" * 8)], map_quirk=True),
        "map_quirk_last": eng.wad([("INFO", info), ("MAP", b"\x11" * 8)], map_quirk=True),
        "unknown_chunk": eng.wad([("INFO", info), ("ZZZZ", b"opaque"), ("TRAK", b"\0" * 4)]),
        "trailing": eng.wad([("INFO", info)], trailing=b"junk!"),
        "wrong_length": eng.wad([("INFO", info)], length=12345),
        "no_end": eng.wad([("INFO", info)], end=False),
    }


QUAD = [(-0.5, 0, -0.5, 0, 1, 0), (0.5, 0, -0.5, 0, 1, 0),
        (0.5, 0, 0.5, 0, 1, 0), (-0.5, 0, 0.5, 0, 1, 0)]
TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]
FLOOR = [(-0.5, 0.0, -0.5), (-0.5, 0.0, 0.5), (0.5, 0.0, 0.5), (0.5, 0.0, -0.5)]


def grey(n, sets=1):
    return L.color_block(n, [[(0x80, 0x80, 0x80, 0)] * n] * sets)


def _models():
    floor = C.polygon(FLOOR, material=3) + C.polygon(FLOOR[::-1], material=0x1e)
    return {
        "quad": L.Model(QUAD, [(0x800, 0, 1, 2, 0), (0x810, 0, 2, 3, 0)]),
        "tri_coll": L.Model(TRI, [(0, 0, 1, 2, 1)], bytes(range(32)), (0, 1, 0)),
        "floor": L.Model(QUAD, [(0, 0, 1, 2, 0)], floor, (1, 1, 0)),
    }


def eng_trak_seeds() -> dict[str, bytes]:
    m = _models()
    return {"empty": L.trak([]), "quad": L.trak([m["quad"]]),
            "three": L.trak([m["quad"], m["tri_coll"], m["floor"]])}


def eng_stpc_seeds() -> dict[str, bytes]:
    rigid = L.Model(TRI, [(0x800, 0, 1, 2, 3)], bytes(range(32)), (0, 1, 0))
    skinned = L.Model(QUAD, [(0, 0, 1, 2, 1)], bones=[1, 3])
    out = {"empty": L.stpc([], [])}
    for layout in ("spec", "croc2"):
        anims = [L.animation(2, 3, 0, 5, 2, layout), L.animation(0, 2, 1, 0, 1, layout, seed=2)]
        out[layout] = L.stpc([rigid, skinned], anims, tail=b"SinkingStatuePad\0")
    return out


def eng_text_seeds() -> dict[str, bytes]:
    pal = T.palette([0x0000, 0x001F, 0x83E0, 0x7FFF], extra=b"\1\2\3\4", index=9)
    rle = T.literal([0x001F, 0x03E0]) + T.repeat(5, 0x7C00) + T.literal([0x8000])
    fx = T.effects([T.effect(0, 1, b"\1\2"), T.effect(1, 8, b"\2\0", [0, 1])])
    return {
        "empty": T.text(),
        "pal8": T.text(palettes=[pal], pages=[T.page_pal8(4, 2, bytes([0, 1, 2, 3] * 2))],
                       entries=[T.entry(page=0, page2=0, u1=3, v1=1)]),
        "rgb16": T.text(pages=[T.page_rgb16(2, 2, [0, 0x8000, 0x7FFF, 0x001F])]),
        "rle16": T.text(pages=[T.page_rle16(4, 2, rle)], entries=[T.entry(page=0)]),
        "all": T.text(palettes=[pal], pages=[T.page_pal8(2, 2, bytes([0, 1, 2, 3])),
                                             T.page_rgb16(2, 1, [1, 2]),
                                             T.page_rle16(4, 2, rle)],
                      entries=[T.entry(page=0, page2=0), T.entry(flags=0, page=2)],
                      tail=fx),
    }


def _framed(wfpc: int, trak: bytes, map_payload: bytes) -> bytes:
    return struct.pack("<II", wfpc, len(trak)) + trak + map_payload


def eng_map_seeds() -> dict[str, bytes]:
    m = _models()
    quad_tiles = [L.Tile(2.5, 1.0, -3.5, rot, 0, colors=grey(4)) for rot in (0, 1024, 2048)]
    tri_colors = [(0x80, 0x40, 0xff, 0), (0x20, 0, 0x80, 0), (0xc0, 0x80, 0x10, 0)]
    swap_tiles = [L.Tile(0.5, 0, -0.5, 0, 0, colors=L.color_block(3, [tri_colors] * 2)),
                  L.Tile(1.5, 0, -0.5, 0, 0, anim=1, colors=L.color_block(3, [tri_colors]),
                         colors_b=grey(4, 2))]
    floor_tiles = [L.Tile(x + 0.5, 0.25 * x, -(z + 0.5), 1024 * x, 0, colors=grey(4))
                   for x in range(3) for z in range(2)]
    return {
        "quads": _framed(0, L.trak([m["quad"]]), L.map_payload(4, 5, quad_tiles)),
        "swaps": _framed(0x10000, L.trak([m["tri_coll"], m["quad"]]),
                         L.map_payload(2, 1, swap_tiles, swaps=[(1, 0, 0, 0, 1)],
                                       strat_list=[1, 2], records90=1, paths34=1,
                                       rest=b"REST" * 3)),
        "floor": _framed(0, L.trak([m["floor"]]), L.map_payload(3, 2, floor_tiles,
                                                               grid=[0, 1, 2, 3, 4, 5])),
    }


def eng_edit_seeds() -> dict[str, bytes]:
    """u32 WFPC, u32 n + TRAK, u32 m + MAP (a small terrain level with turned
    and shared tiles and a swap), then edit bytes (fuzz_eng_edit.c)."""
    out = {}
    for name, kw in (("swap", {}), ("plain", {"swap": False, "crates": 2})):
        wad = ET.terrain_level(grid=4, **kw)[0]
        chunks, at = {}, 4
        while at < len(wad):
            tag, n = wad[at:at + 4][::-1].decode(), struct.unpack_from("<I", wad, at + 4)[0]
            chunks[tag.strip()] = wad[at + 8:at + 8 + n]
            at += 8 + n
        head = (chunks["WFPC"] + struct.pack("<I", len(chunks["TRAK"])) + chunks["TRAK"]
                + struct.pack("<I", len(chunks["MAP"])) + chunks["MAP"])
        for ops_name, ops in (("moves", bytes([1, 0, 5, 80, 64, 80, 32] + [7] * 70)),
                              ("mixed", bytes(range(7, 250, 3)) * 3)):
            out[f"{name}_{ops_name}"] = head + ops
    return out


def lz_seeds() -> dict[str, bytes]:
    text = b"The quick brown fox jumps over the lazy dog. " * 40
    return {
        "literals": LZ.stream(LZ.run(b"hello, world")),
        "little": LZ.stream(LZ.run(b"abcdefgh") + LZ.little(5, 8)),
        "medium": LZ.stream(LZ.run(bytes(range(64))) + LZ.medium(40, 64, b"xy")),
        "greedy_text": LZ.greedy_compress(text),
        "greedy_bytes": LZ.greedy_compress(bytes(range(256)) * 8 + bytes(300)),
        "plain_text": text[:300],
        # 8 bytes: the fast parser's prefetch read past the input (ASan, -O1)
        "eight_bytes": bytes.fromhex("65cc106507576854"),
    }


def rc2_level_seeds() -> dict[str, bytes]:
    return {"ntsc": R.level()[0], "pal": R.level(variant=0x68)[0]}


def rc2_tfrag_seeds() -> dict[str, bytes]:
    return {
        "one": TF.block([TF.grid_patch(0, 0, w=2, h=1)]),
        "two_lod_split": TF.block([TF.grid_patch(0, 0, w=3, h=3, lod_split=True),
                                   TF.grid_patch(4, 0, w=2, h=2, texture=1)]),
    }


def rc2_tfrag_build_seeds() -> dict[str, bytes]:
    """Bytes the harness reads as meshes (see fuzz_rc2_tfrag_build.c)."""
    return {"ramp": bytes(range(256)) * 2, "small": bytes([0, 1] + [7] * 40 + [0, 1, 0, 1, 2, 3]),
            "three": bytes([2]) + bytes((i * 37) & 0xFF for i in range(900))}


def rc2_build_seeds() -> dict[str, bytes]:
    """Bytes the harness reads as level parts (see fuzz_rc2_build.c)."""
    return {"plain": bytes(40) + bytes([2, 1, 1, 4, 4, 0]) + bytes(range(16)) * 2
            + b"gameplay" * 20,
            "ramp": bytes(range(256)) * 3}


def rc2_gameplay_seeds() -> dict[str, bytes]:
    from builders import rc2_gameplay as G
    g = G.generated(seed=3, tie_classes=3, ties=6, shrub_classes=2, shrubs=4,
                    moby_classes=4, mobys=3)
    return {"small": G.layout(G.sample()["blocks"]), "generated": g["gameplay"],
            "header_only": G.layout({})}


def rc2_classes_seeds() -> dict[str, bytes]:
    from builders import rc2_core as RC
    core, fields, tables, _ = RC.with_classes(R.core_plain(), RC.SAMPLE_CLASSES,
                                              {"moby": 5, "tie": 3, "shrub": 2})
    for name, off in R.CORE_OFFSETS.items():
        fields[off] = R.REGIONS[name]
    fields[0x8C] = len(core)
    return {"small": R.core_header(fields) + bytes(0x44) + tables}


def rc2_class_mesh_seeds() -> dict[str, bytes]:
    """Byte 0: kind (% 3: tie, shrub, moby) + 3 * LOD; then the class."""
    tie, shrub = TI.sample_class().bytes(), SH.sample_class().bytes()
    return {"tie0": bytes([0]) + tie, "tie2": bytes([6]) + tie,
            "shrub": bytes([1]) + shrub,
            "moby0": bytes([2]) + MO.sample_class().bytes(),
            "moby1_rc1": bytes([5]) + MO.sample_class(1).bytes()}


SEEDS = {
    "rc2_class_mesh": rc2_class_mesh_seeds,
    "rc2_gameplay": rc2_gameplay_seeds,
    "rc2_classes": rc2_classes_seeds,
    "rc2_build": rc2_build_seeds,
    "rc2_tfrag_build": rc2_tfrag_build_seeds,
    "lz": lz_seeds,
    "rc2_level": rc2_level_seeds,
    "rc2_tfrag": rc2_tfrag_seeds,
    "eng_wad": eng_wad_seeds,
    "eng_trak": eng_trak_seeds,
    "eng_stpc": eng_stpc_seeds,
    "eng_text": eng_text_seeds,
    "eng_map": eng_map_seeds,
    "eng_edit": eng_edit_seeds,
}


def main(out: str) -> None:
    for name, make in SEEDS.items():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for seed, data in make().items():
            with open(os.path.join(folder, "seed-" + seed), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
