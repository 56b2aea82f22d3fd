"""The numbers docs/samples.md gives for the sample levels are those the
samples have: made here from the samples and looked for in the document
(a change to the samples that moves them fails until the doc says so)."""
import os
import warnings

import pytest

import wadkit
import wadkit.samples

DOC = os.path.join(os.path.dirname(__file__), "..", "docs", "samples.md")


@pytest.fixture(scope="module")
def doc():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


def eng_facts() -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wadkit.WadWarning)
        lvl = wadkit.samples.eng_level(0)
        tiles, models = lvl.tiles, lvl.models
    water = sum(1 for i in range(len(tiles))
                if len(models[tiles.model[i]].triangles) == 0)
    tris = sum(len(m.triangles) for m in models)
    verts = sum(len(m.positions) for m in models)
    coll = sum(sum(m.collision_groups) for m in models)
    sizes = {c.tag: c.size for c in lvl.chunks}
    return [f"| tiles | {len(tiles):,} (", f"{water:,} of them water-only",
            f"| triangles | {tris:,} render triangles, {verts:,} model vertices, "
            f"{coll:,} collision records |",
            f"| size | {lvl.info()['size'] / 1e6:.1f} MB (TRAK "
            f"{sizes['TRAK'] / 1e6:.1f} MB) |"]


def rc2_facts() -> list[str]:
    data = wadkit.samples.rc2_bytes(0)
    lvl = wadkit.rc2.from_bytes(data)
    tris = len(lvl.terrain()["triangles"])
    coll = lvl.collision()
    water = int((coll["quad_tag"] == 0x0E).sum())
    ground = int((coll["tag"] == 0x0F).sum())
    dome, haze = lvl.sky()["shells"]
    return [f"and 128 triangles per patch, {tris:,} triangles;",
            f"| ties | {len(lvl.tie_classes)} classes:",
            f"; {len(lvl.ties)} instances on dry ground",
            f"| shrubs | {len(lvl.shrub_classes)} classes:",
            f"; {len(lvl.shrubs):,} instances (about half grass)",
            f"| mobys | {len(lvl.moby_classes)} classes, each one rigid mesh",
            f"; {len(lvl.mobys)} instances, each at its spot",
            f"as {ground:,} triangles tagged 0x0f (ground)",
            f"over each of the {water:,} quads whose ground dips",
            f"{len(coll['triangles']):,} triangles as read back, in "
            f"{len(lvl.collision_octants()['offset']):,} octants",
            f"| sky | {len(lvl.sky()['shells'])} untextured shells:",
            f"({len(dome['positions'])} vertices as stored, {len(dome['triangles'])} "
            f"triangles, {len(dome['clusters'])} clusters)",
            f"({len(haze['positions'])} vertices, {len(haze['triangles'])} triangles)",
            f"the twelve class meshes: {len(lvl.core_data):,} bytes, "
            f"{lvl.core_header['compressed_size']:,} compressed",
            f"| gameplay | {len(lvl.gameplay):,} bytes, WAD-LZ",
            f"| size | {len(data):,} bytes ({len(data) // 2048} sectors) |"]


@pytest.mark.parametrize("facts", [eng_facts, rc2_facts])
def test_sample_numbers_in_the_doc(doc, facts):
    missing = [f for f in facts() if f not in doc]
    assert not missing, ("docs/samples.md is out of date; it should say:\n"
                         + "\n".join(missing))
