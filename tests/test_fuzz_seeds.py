"""The fuzz harnesses' seeds (fuzz/seeds.py) must be inputs their parsers
accept: a seed that no longer parses (a builder or parser changed) would
leave its harness fuzzing only the first bytes of the format."""
import importlib.util
import os
import struct

import pytest

import wadkit
from wadkit import _core, lz

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("fuzz_seeds", os.path.join(ROOT, "fuzz", "seeds.py"))
seeds = importlib.util.module_from_spec(spec)
spec.loader.exec_module(seeds)


def parse_map(data):
    wfpc, n = struct.unpack_from("<II", data)
    trak, map_ = data[8:8 + n], data[8 + n:]
    g = _core.EngGeometry(data[:4], trak, 0, map_, 0, None, 0)
    g.models("file")
    return g.tiles("file")


def parse_edit(data):
    wfpc, n = struct.unpack_from("<II", data)
    m = struct.unpack_from("<I", data, 8 + n)[0]
    return _core.EngEdit(wfpc, data[8:8 + n], 0, data[12 + n:12 + n + m], 0, None)


def parse_class_mesh(data):
    """As fuzz_rc2_class_mesh.c reads its input: byte 0 = kind + 3 * LOD."""
    kind, lod = data[0] % 3, (data[0] // 3) % 3
    if kind == 0:
        return _core.tie_mesh(data[1:], lod)
    if kind == 1:
        return _core.shrub_mesh(data[1:])
    return _core.moby_mesh(data[1:], lod % 2)


ACCEPT = {
    "eng_wad": lambda d: wadkit.eng.from_bytes(d),
    "eng_trak": lambda d: _core.EngGeometry(None, d, 0, None, 0, None, 0).models("file"),
    "eng_stpc": lambda d: _core.EngGeometry(None, None, 0, None, 0, d, 0).animations(),
    "eng_text": lambda d: _core.EngText(d),
    "eng_map": parse_map,
    "eng_edit": parse_edit,
    "lz": lz.decompress,
    "rc2_level": lambda d: wadkit.rc2.from_bytes(d).core_data,
    "rc2_tfrag": lambda d: _core.tfrag_parse(d, 0, 4),
    "rc2_gameplay": lambda d: _core.rc2_gameplay_parse(d),
    "rc2_classes": lambda d: _core.rc2_classes_parse(d),
    "rc2_class_mesh": parse_class_mesh,
    "rc2_tfrag_build": None,   # writer harnesses: any bytes are meshes/parts
    "rc2_build": None,
}
# seeds that are meant to be refused (they exercise the error paths; the lz
# harness also compresses every input: its plain seeds are for that side)
REFUSED = {("eng_wad", "no_end"), ("lz", "plain_text"), ("lz", "eight_bytes")}


def test_every_harness_has_seeds():
    harnesses = {f[5:-2] for f in os.listdir(os.path.join(ROOT, "fuzz"))
                 if f.startswith("fuzz_") and f.endswith(".c")}
    assert harnesses == set(seeds.SEEDS) == set(ACCEPT)


@pytest.mark.filterwarnings("ignore::wadkit.WadWarning")
@pytest.mark.parametrize("name", sorted(k for k, v in ACCEPT.items() if v))
def test_seeds_parse(name):
    for seed, data in seeds.SEEDS[name]().items():
        if (name, seed) in REFUSED:
            with pytest.raises(wadkit.FormatError):
                ACCEPT[name](data)
        else:
            ACCEPT[name](data)
