"""Every entry point of wadkit._core, each as a call on small inputs, and a
driver that runs each call with the n-th Python allocation failing, for
n = 0, 1, 2, … (_testcapi.set_nomemory). Run as a script by
tests/test_alloc_failures.py (in a child process: a crash fails the test,
not the test run); it prints one line per call and exits 1 when a call
raised anything but MemoryError under a failed allocation, or when the
allocated blocks grew from one full pass to the next (a leak on an error
path). Under `make sanitize` the child runs with ASan, so a double free or
a use after free on an error path aborts it."""
from __future__ import annotations

import gc
import os
import sys
import tempfile
import warnings

import numpy as np

import wadkit
from wadkit import _core

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from builders import eng_collision as C  # noqa: E402
from builders import eng_level as L  # noqa: E402
from builders import eng_text as T  # noqa: E402
from builders import eng_wad as B  # noqa: E402
from builders import rc2_full as F  # noqa: E402
from builders import rc2_level as R  # noqa: E402
from builders import rc2_moby as RM  # noqa: E402
from builders import rc2_shrub as RS  # noqa: E402
from builders import rc2_sky as SKY  # noqa: E402
from builders import rc2_tie as RT  # noqa: E402

TRI = [(0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 1, 0)]
ENTRIES = [T.entry(0, 0, -1, 0, 63, 0, 63), T.entry(1, 0, -1, 9, 8, 7, 255)]


def _text() -> bytes:
    pal = T.palette([0x7fff, 0x001f, 0x03e0, 0x7c00])
    pages = [T.page_pal8(4, 4, bytes(range(4)) * 4),
             T.page_rgb16(4, 4, [0x7fff] * 16),
             T.page_rle16(4, 4, T.literal([0x1234] * 16))]
    fx = T.effects([T.effect(0, 1, b"\x01\x02\x03\x04", [0, 1])])
    return T.text([pal], pages, ENTRIES, tail=fx)


def _eng_level() -> bytes:
    coll = C.polygon([(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 0)], material=3)
    model = L.Model(TRI, [(0x800, 0, 1, 2, 0)], coll, (1, 0, 0))
    tiles = [L.Tile(0.5, 0, -0.5, 0, 0, anim=1,
                    colors=L.color_block(3, [[(0x80, 0x80, 0x80, 0)] * 3]),
                    colors_b=L.color_block(3, [[(1, 1, 1, 0)] * 3]))]
    mp = L.map_payload(2, 2, tiles, swaps=[(0, 0, 0, 0, 0)], grid=[0, 1, 0, 1])
    obj = L.Model(TRI, [(0, 0, 1, 2, 0)], bones=[2, 1])
    st = L.stpc([obj], [L.animation(2, 2, 0, 3, 2), L.animation(1, 1, 1, 0, 1)],
                tail=b"rest")
    return L.level(wfpc=0x10000, trak_payload=L.trak([model]), map_payload_=mp,
                   text_payload=_text(), stpc_payload=st)


ENG = _eng_level()
WAD = _core.EngWad(ENG)
LEVEL = wadkit.eng.from_bytes(ENG)
GEOM = LEVEL._geom
TEXT_BYTES = _text()
TEXT = _core.EngText(TEXT_BYTES)
RGBA = np.full((4, 4, 4), 255, np.uint8)
TILES = LEVEL.tiles
QUAD = dict(positions=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], np.float32),
            uv=np.array([[0, 0], [1, 0], [0, 1], [1, 1]], np.float32),
            color=np.ones((4, 4), np.float32), strips=[[0, 1, 2, 3]], textures=[0])
TFRAGS = wadkit.rc2.build_tfrags([QUAD])
PALS = np.zeros((1, 256, 4), np.uint8)
RC2 = wadkit.rc2.build_level(TFRAGS, [(np.zeros((4, 4), np.uint8), 0)], PALS, b"gameplay")
RC2_LEVEL = _core.Rc2Level(RC2)
RC2_CORE = RC2_LEVEL.decompress("core_data")
LZ = _core.lz_compress(b"abcabcabc" * 20)
RESTREAM_PLAIN = b"".join(bytes([i % 251]) * (i % 7 + 1) + b"wadkit" for i in range(9000))
RESTREAM = _core.lz_compress(RESTREAM_PLAIN, level="fast")
TMP = tempfile.mkdtemp(prefix="wadkit-nomem-")
TABLE = bytes(TEXT.table_raw)
CHUNKS = (LEVEL.chunk("WFPC"), LEVEL.chunk("TRAK"), 0, LEVEL.chunk("MAP"), 0,
          LEVEL.chunk("STPC"), 0)
COLL = [bytes(m.collision_raw) for m in LEVEL.models]
# a floor quad in cell (0, 0), file space; a collision quad under it
POS = np.array([[0.1, 0.5, 0.1], [0.1, 0.5, 0.9], [0.9, 0.5, 0.9], [0.9, 0.5, 0.1]],
               np.float32)
CPOS = POS - np.float32([0, 0.25, 0])
UV = np.array([[(0.25, 0.25), (0, 0), (0, 0.25)], [(0, 0), (0.25, 0.25), (0.25, 0)]],
              np.float32)


def _import():
    return GEOM.import_mesh(POS, [[0, 1, 2], [0, 2, 3]], UV, [0, 1],
                            np.ones((2, 3, 4), np.float32), [0x800, 0x810],
                            CPOS, [[0, 1, 2, 3]], [5], TABLE)


def _floor_world():
    t = TILES
    return _core.EngFloorWorld(t.width, t.height, t.a_position, t.b, t.model, COLL)


FLOOR = _floor_world()


def _add_to_text():
    t = _core.EngText(TEXT_BYTES)
    page = t.add_page(RGBA, "rle16")
    return t.add_entry(0, page, -1, 0, 3, 0, 3), t.add_flat_entry(0, 1, 2, 3), t.build()


TRAK, MAP = bytes(LEVEL.chunk("TRAK")), bytes(LEVEL.chunk("MAP"))


def _edit():
    return _core.EngEdit(0x10000, TRAK, 0, MAP, 0, TABLE, True)


EDIT = _edit()
EDITED = _edit()
EDITED.place_tile(0, (1.5, 0.0, 0.5), 1024, None)
GREY = np.full((1, 3, 4), 0x80, np.uint8)
LOCAL = np.array([[0, 0, 0], [0.25, 0, 0], [0, 0, 0.25]], np.float32)

# a whole RC2 level with gameplay, classes and collision (tests/builders)
FULL = wadkit.rc2.from_bytes(F.level()[0])
FULL_GP = FULL.gameplay
FULL_IDS = {k: FULL._classes[k]["id"] for k in ("tie", "shrub", "moby")}
FULL_INST = {k: (np.arange(n, dtype=np.int32), FULL_IDS[k][:1].repeat(n),
                 np.tile(np.eye(4, dtype=np.float32), (n, 1, 1)))
             for k, n in (("tie", 2), ("shrub", 1))}
FULL_COLL = bytes(FULL.collision_block())
FULL_OCT = FULL.collision_octants()
FULL_TFRAGS = FULL.tfrag_block()
FULL_POS = FULL.terrain(0)["positions"] + np.float32([0, 0, 0.125])
SKY_BLOCK = SKY.block([(True, [([(1024, 0, 0, 0x80), (0, 2048, 0, 0x40), (0, 0, -1024, 0x80)],
                                 [(0, 0), (4096, 0), (2048, -8192)], [(0, 1, 2, 0)])])],
                      textures=[(2, 2, bytes(4), bytes(1024))])
TIE, SHRUB, MOBY = (RT.sample_class().bytes(), RS.sample_class().bytes(),
                    RM.sample_class().bytes())


# name -> (what it covers, call). Every public name of _core and every
# method/property of its types is in COVERS (checked by the test).
# one triangle, as every class / sky writer takes it
CLS = {"pos": np.eye(3, dtype=np.float32), "uv": np.zeros((3, 2), np.float32),
       "idx": np.arange(3, dtype=np.uint32), "len": np.array([3], np.uint32),
       "slot": np.zeros(1, np.uint8), "nrm": np.array([(0, 0, 1)] * 3, np.float32),
       "tri": np.array([(0, 1, 2)], np.uint32), "rgba": np.zeros((3, 4), np.uint8),
       "alpha": np.zeros(3, np.int16)}

CALLS = {
    "EngWad": lambda: _core.EngWad(ENG),
    "EngWad.path": lambda: _core.EngWad(os.path.join(TMP, "level.wad")),
    "EngWad.chunks": lambda: WAD.chunks,
    "EngWad.warnings": lambda: WAD.warnings,
    "EngWad.scalars": lambda: (WAD.declared_length, WAD.end, WAD.size),
    "EngWad.build": lambda: WAD.build({1: b"\0\0\0\0"}),
    "EngWad.save": lambda: WAD.save(os.path.join(TMP, "out.wad"), {1: b"\0\0\0\0"}),
    "EngText": lambda: _core.EngText(TEXT_BYTES, 12),
    "EngText.pages": lambda: TEXT.pages,
    "EngText.palettes": lambda: TEXT.palettes,
    "EngText.raw": lambda: (TEXT.table_raw, TEXT.tail_raw),
    "EngText.effects": lambda: (TEXT.effects, TEXT.effects_note),
    "EngText.page_rgba": lambda: [TEXT.page_rgba(i) for i in range(3)],
    "EngText.set_page_rgba": lambda: _core.EngText(TEXT_BYTES).set_page_rgba(1, RGBA),
    "EngText.textures": lambda: TEXT.textures(),
    "EngText.build": lambda: TEXT.build(),
    "EngText.with_entries": lambda: TEXT.with_entries(b"".join(ENTRIES)),
    "EngText.add": lambda: _add_to_text(),
    "eng_bone_matrices": lambda: (_core.eng_bone_matrices(np.zeros((2, 3, 4, 4))),
                                  _core.eng_bone_matrices(np.eye(4), "export")),
    "eng_face_uvs": lambda: _core.eng_face_uvs((0, 0, 1, 1), 0x800),
    "EngFloorWorld": _floor_world,
    "EngFloorWorld.floor": lambda: (FLOOR.floor(0.5, 0.5, 0.5),
                                    FLOOR.floor(0.2, 1, 0.3, candidates=True)),
    "EngFloorWorld.needles": lambda: FLOOR.needles(),
    "EngFloorWorld.cell": lambda: FLOOR.cell(0, 0),
    "EngFloorWorld.scalars": lambda: (FLOOR.width, FLOOR.height, FLOOR.n_tiles),
    "eng_sine_table": lambda: _core.eng_sine_table(),
    "eng_collision_decode": lambda: _core.eng_collision_decode(
        COLL[0], space="export", groups=(1, 0, 0)),
    "eng_collision_encode": lambda: _core.eng_collision_encode(
        [[(0, 0, 0), (0, 0, 1), (1, 0, 1)], [(0, 0, 0), (0, 0, 0), (0, 0, 0)]],
        [1, 2], drop_degenerate=True),
    "EngGeometry": lambda: _core.EngGeometry(*CHUNKS),
    "EngGeometry.models": lambda: (GEOM.models("file"), GEOM.models("export", True)),
    "EngGeometry.model_counts": lambda: GEOM.model_counts(),
    "EngGeometry.tiles": lambda: GEOM.tiles("export"),
    "EngGeometry.zones": lambda: GEOM.zones(),
    "EngGeometry.animations": lambda: GEOM.animations(),
    "EngGeometry.world_mesh": lambda: GEOM.world_mesh("file", TABLE, 1),
    "EngGeometry.import_mesh": _import,
    "EngGeometry.build": lambda: (GEOM.build_trak(), GEOM.build_map(), GEOM.build_stpc()),
    "EngGeometry.scalars": lambda: (GEOM.flags, GEOM.warnings, GEOM.animation_layout,
                                    GEOM.counts),
    "Rc2Level": lambda: _core.Rc2Level(RC2),
    "Rc2Level.dicts": lambda: (RC2_LEVEL.header, RC2_LEVEL.extents,
                               RC2_LEVEL.sections, RC2_LEVEL.core_header),
    "Rc2Level.decompress": lambda: (RC2_LEVEL.decompress("core_data"),
                                    RC2_LEVEL.decompress("gameplay")),
    "Rc2Level.tfrag_block": lambda: RC2_LEVEL.tfrag_block(len(RC2_CORE)),
    "Rc2Level.textures": lambda: RC2_LEVEL.textures(RC2_CORE, "tfrag"),
    "lz_decompress": lambda: _core.lz_decompress(LZ),
    "lz_compress": lambda: _core.lz_compress(b"abcabcabc" * 20, level="lazy"),
    "lz_validate": lambda: _core.lz_validate(LZ),
    "tfrag_parse": lambda: _core.tfrag_parse(TFRAGS, 0, 1),
    "tfrag_texture": lambda: _core.tfrag_texture(bytes(16), 4, 4, bytes(1024)),
    "tfrag_build": lambda: _core.tfrag_build([(
        QUAD["positions"], QUAD["uv"], QUAD["color"], np.arange(4, dtype=np.uint32),
        np.array([4], np.uint32), np.array([0], np.int32))]),
    "eng_new_level": lambda: _core.eng_new_level(
        2, 2, 0, [(0, np.zeros((4, 4), np.uint8))],
        [(0, 4, 4, np.zeros((4, 4), np.uint8)), (0x80, 4, 4, np.zeros((4, 4, 4), np.uint8))],
        b"".join(ENTRIES), np.zeros((32, 2), np.uint32), np.zeros((2, 2), np.uint32),
        [(POS, [[0, 1, 2]], [0], UV[:1])]),
    "warn": lambda: _core.warn("a warning"),
    "detect": lambda: (_core.detect(ENG[:16]), _core.detect(RC2[:16]), _core.detect(b"")),
    "eng_texture_entry": lambda: _core.eng_texture_entry(0x10, 1, -1, 0, 1, 63, 62),
    "eng_flat_entry": lambda: _core.eng_flat_entry(1, 2, 3, 4),
    "rc2_build_level": lambda: _core.rc2_build_level(
        TFRAGS, [(4, 4, 0, np.zeros((4, 4), np.uint8))], PALS, b"gameplay", 1, 2),
    "rc2_empty_gameplay": lambda: _core.rc2_empty_gameplay(b"tail"),
    "rc2_new_gameplay": lambda: _core.rc2_new_gameplay(b"tail"),
    "rc2_tie_build": lambda: _core.rc2_tie_build(
        CLS["pos"], CLS["uv"], CLS["idx"], CLS["len"], CLS["slot"], 9, (1.0, 2.0, 3.0)),
    "rc2_shrub_build": lambda: _core.rc2_shrub_build(
        CLS["pos"], CLS["uv"], CLS["nrm"], CLS["tri"], CLS["slot"], 9, 5.0),
    "rc2_moby_build": lambda: _core.rc2_moby_build(
        CLS["pos"], CLS["uv"], CLS["nrm"], CLS["tri"], CLS["slot"], 9),
    "rc2_sky_build": lambda: _core.rc2_sky_build(
        b"\1\2\3\4", 1, [(CLS["pos"], CLS["rgba"], CLS["alpha"], CLS["tri"])]),
    "rc2_build_level_parts": lambda: _core.rc2_build_level(
        TFRAGS, [(4, 4, 0, np.zeros((4, 4), np.uint8))], PALS, b"gameplay", 1, 2,
        None, None, {"tie": [(5, b"class", bytes(16), (0,) * 8)],
                     "shrub": [(6, None, b"\xff" * 16, tuple(range(8)))]},
        [None, [], [0], []]),
    "eng_colors_to_display": lambda: _core.eng_colors_to_display(GREY[0]),
    "eng_colors_from_display": lambda: _core.eng_colors_from_display(
        np.full((3, 4), 0.25), GREY[0]),
    "EngEdit": _edit,
    "EngEdit.queries": lambda: (EDIT.counts, EDIT.tile_model(0), EDIT.tile_colors(0),
                                EDIT.model_verts(0)),
    "EngEdit.set_geometry": lambda: _edit().set_geometry(
        [0], LOCAL, [[0, 1, 2]], UV[:1], [0], [0x800], [GREY], "geometry"),
    "EngEdit.set_collision": lambda: _edit().set_collision(
        [0], LOCAL, [[0, 2, 1, -1]], [3], "collision"),
    "EngEdit.set_colors": lambda: _edit().set_colors(0, GREY + 1, "colours"),
    "EngEdit.tiles": lambda: (_edit().place_tile(0, (1.5, 0.0, 1.5), 2048, "t"),
                              _edit().delete_tile(0, None),
                              _edit().add_tile(0, (0.5, 0.0, 1.5), 0, GREY, "new")),
    "EngEdit.add_mesh": lambda: _edit().add_mesh(
        POS, [[0, 1, 2], [0, 2, 3]], UV, [0, 1], np.ones((2, 3, 4), np.float32),
        None, CPOS, [[0, 1, 2, 3]], [5], True, "mesh"),
    "EngEdit.flat_entry": lambda: _edit().flat_entry(9, 8, 7),
    "EngEdit.build": lambda: EDITED.build(),
    "Rc2Level.queries": lambda: (FULL._lvl.chunk_headers, FULL._lvl.tfrag_texture_count(),
                                 FULL._lvl.core_block("sky", len(FULL.core_data))),
    "rc2_gameplay_layouts": lambda: _core.rc2_gameplay_layouts(),
    "rc2_gameplay_parse": lambda: _core.rc2_gameplay_parse(FULL_GP, *FULL_IDS.values()),
    "rc2_classes_parse": lambda: _core.rc2_classes_parse(FULL.core_index, 4),
    "rc2_gameplay_write": lambda: _core.rc2_gameplay_write(
        FULL_GP, FULL_IDS, FULL_INST, [("death_height", (-60.0,)),
                                       ("fog_colour", (1.0, 2.0, 3.0))]),
    "rc2_tfrags_edit": lambda: _core.rc2_tfrags_edit(
        FULL_TFRAGS, 0, FULL._tfrag_texture_count(), FULL_POS, None, None, None, []),
    "rc2_level_tfrags_edit": lambda: _core.rc2_level_tfrags_edit(
        FULL._lvl, FULL_POS, None, None, None, []),
    "rc2_level_rewrite": lambda: _core.rc2_level_rewrite(
        FULL._lvl, None, FULL_COLL, FULL_GP, None),
    "rc2_level_save": lambda: _core.rc2_level_save(FULL._lvl, os.path.join(TMP, "L.WAD")),
    "rc2_restream": lambda: _core.rc2_restream(
        RESTREAM, RESTREAM_PLAIN[:30000] + b"edit" + RESTREAM_PLAIN[30004:]),
    "collision_parse": lambda: _core.collision_parse(FULL_COLL, 16),
    "collision_build": lambda: _core.collision_build(
        POS, [[0, 1, 2]], [1], [[0, 1, 2, 3]], [2]),
    "collision_build_octants": lambda: _core.collision_build_octants(
        int(FULL_OCT["mesh_offset"]), tuple(int(v) for v in FULL_OCT["z_node"][:2]),
        *(FULL_OCT[k] for k in ("y_nodes", "x_nodes", "coord", "counts", "vertices",
                                "faces", "face_tag")), bytes(FULL_OCT["hero"])),
    "sky_parse": lambda: _core.sky_parse(SKY_BLOCK, 8),
    "tie_mesh": lambda: (_core.tie_mesh(TIE, 0, 4, 7), _core.tie_mesh(TIE, 2)),
    "shrub_mesh": lambda: _core.shrub_mesh(SHRUB, 4, 7),
    "moby_mesh": lambda: _core.moby_mesh(MOBY, 0, 4, 7),
}

# The _core names each call covers (types: every public attribute).
COVERS = {
    "EngWad": ["EngWad"], "EngWad.path": ["EngWad"], "EngText": ["EngText"], "EngFloorWorld": ["EngFloorWorld"],
    "EngGeometry": ["EngGeometry"], "Rc2Level": ["Rc2Level"],
    "EngWad.scalars": ["EngWad.declared_length", "EngWad.end", "EngWad.size"],
    "EngText.raw": ["EngText.table_raw", "EngText.tail_raw"],
    "EngText.effects": ["EngText.effects", "EngText.effects_note"],
    "EngFloorWorld.scalars": ["EngFloorWorld.width", "EngFloorWorld.height",
                              "EngFloorWorld.n_tiles"],
    "EngGeometry.build": ["EngGeometry.build_trak", "EngGeometry.build_map",
                          "EngGeometry.build_stpc"],
    "EngGeometry.scalars": ["EngGeometry.flags", "EngGeometry.warnings",
                            "EngGeometry.animation_layout", "EngGeometry.counts"],
    "Rc2Level.queries": ["Rc2Level.chunk_headers", "Rc2Level.tfrag_texture_count",
                         "Rc2Level.core_block"],
    "rc2_build_level_parts": ["rc2_build_level"],
    "Rc2Level.dicts": ["Rc2Level.header", "Rc2Level.extents", "Rc2Level.sections",
                       "Rc2Level.core_header"],
    "EngEdit.queries": ["EngEdit.counts", "EngEdit.tile_model", "EngEdit.tile_colors",
                        "EngEdit.model_verts"],
    "EngEdit.tiles": ["EngEdit.place_tile", "EngEdit.delete_tile", "EngEdit.add_tile"],
    "EngText.add": ["EngText.add_page", "EngText.add_entry", "EngText.add_flat_entry"],
}


# Calls whose block count may grow for reasons inside CPython: when an
# allocation in the warnings machinery fails, it falls back to its own
# filters and registry (Python's own warnings.warn(msg, cat, 3) even raises
# SystemError under the same injection). They must still not crash and
# raise nothing but MemoryError.
GROWTH_NOT_OURS = {"warn"}


def covered() -> set[str]:
    out = set()
    for name in CALLS:
        out.update(COVERS.get(name, [name]))
    return out


def entry_points() -> set[str]:
    """Public functions of _core and public attributes of its types."""
    out = set()
    for name in dir(_core):
        obj = getattr(_core, name)
        if name.startswith("_") or isinstance(obj, (int, str, tuple)):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        if isinstance(obj, type):
            out.add(name)
            out.update(f"{name}.{a}" for a in vars(obj) if not a.startswith("_"))
        elif callable(obj):
            out.add(name)
    return out


_FAILED = object()


def attempt(call, n: int, testcapi) -> bool:
    """The call with the n-th allocation failing: True when it succeeded.
    MemoryError is the one failure allowed; the result is dropped only
    after the hook is gone (its deallocation is not what is tested)."""
    testcapi.set_nomemory(n, n + 1)
    try:
        result = call()
    except MemoryError:
        result = _FAILED
    finally:
        testcapi.remove_mem_hooks()
    return result is not _FAILED


def inject(call, testcapi, give_up=40, limit=20000) -> int:
    """Fail the n-th allocation for n = 0, 1, … until give_up calls in a row
    succeed; returns how many calls failed."""
    failed = ok_run = n = 0
    while ok_run < give_up and n < limit:
        ok = attempt(call, n, testcapi)
        failed += not ok
        ok_run = ok_run + 1 if ok else 0
        n += 1
    return failed


def main() -> int:
    import _testcapi
    with open(os.path.join(TMP, "level.wad"), "wb") as f:
        f.write(ENG)
    warnings.simplefilter("ignore")
    bad = 0
    names = sys.argv[1:] or list(CALLS)
    for name in names:
        call = CALLS[name]
        call()                       # warm caches: they are not leaks
        try:
            inject(call, _testcapi)  # first pass fills lazily made things
            grown = []
            for _ in range(3):       # a leak grows every pass, noise not
                gc.collect()
                before = sys.getallocatedblocks()
                failed = inject(call, _testcapi)
                gc.collect()
                grown.append(sys.getallocatedblocks() - before)
        except Exception as exc:    # anything but MemoryError under injection
            print(f"{name}: {type(exc).__name__}: {exc}")
            bad += 1
            continue
        # pymalloc counts blocks (0 under PYTHONMALLOC=malloc: ASan checks then)
        leak = min(grown) > 0 and name not in GROWTH_NOT_OURS
        print(f"{name}: {failed} failed allocations, blocks grown {grown}"
              + (" LEAK" if leak else ""))
        bad += leak
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
