"""CLI convert / textures / floor / needles: output files, batch progress and
failures, and the --json forms documented in docs/cli.md. Files named
*.fake open as the hand-made levels of fake_levels.py (the reader API they
stand for is tested by the readers' own tests)."""
import json
import os

import numpy as np
import pytest

from wadkit import _convert, cli, commands
from wadkit.detect import open as real_open
from builders import eng_wad as B

import fake_levels as F
import gltf_check as G


@pytest.fixture
def fake_open(monkeypatch):
    def opener(path):
        if str(path).endswith(".fake"):
            return F.FakeEngLevel(str(path))
        if str(path).endswith(".fakerc2"):
            return F.FakeRc2Level()
        return real_open(path)
    monkeypatch.setattr(commands, "open_level", opener)
    monkeypatch.setattr(_convert, "open_level", opener)


def test_convert_one_file_to_glb(tmp_path, fake_open, capsys):
    out = tmp_path / "lvl.glb"
    assert cli.main(["convert", "a.fake", "-o", str(out)]) == 0
    gltf, binary = G.read_glb(out.read_bytes())
    G.check(gltf, binary)
    assert len(G.triangles(gltf, binary, "world")) == 4
    out_err = capsys.readouterr()
    assert out_err.err == ""
    assert out_err.out == f"wrote {out}: world 4 triangles\n"


@pytest.mark.parametrize("fmt,files", [("glb", ["a.glb"]),
                                       ("gltf", ["a.gltf", "a.bin"]),
                                       ("obj", ["a.obj", "a.mtl",
                                                "a_page_00.png"])])
def test_convert_formats_into_folder(tmp_path, fake_open, fmt, files):
    assert cli.main(["convert", "a.fake", "-o", str(tmp_path / "out"),
                     "--format", fmt]) == 0
    for f in files:
        assert (tmp_path / "out" / f).is_file(), f


def test_convert_collision_flag(tmp_path, fake_open):
    out = tmp_path / "c.glb"
    assert cli.main(["convert", "a.fake", "-o", str(out), "--collision"]) == 0
    gltf, binary = G.read_glb(out.read_bytes())
    assert len(G.triangles(gltf, binary, "collision")) == 6


def test_convert_rc2_lod(tmp_path, fake_open):
    out = tmp_path / "r.gltf"
    assert cli.main(["convert", "x.fakerc2", "-o", str(out), "--lod", "1"]) == 0
    gltf = json.loads(out.read_text())
    assert [n["name"] for n in gltf["nodes"]][-1] == "terrain"


def test_batch_survives_bad_files(tmp_path, fake_open, capsys):
    bad = tmp_path / "bad.wad"
    bad.write_bytes(B.sample_wad()[:40])            # truncated: FormatError
    missing = tmp_path / "missing.wad"
    out = tmp_path / "out"
    rc = cli.main(["convert", "one.fake", str(bad), str(missing),
                   "two.fake", "-o", str(out), "-j", "1"])
    assert rc == 1
    assert sorted(os.listdir(out)) == ["one.glb", "two.glb"]
    err = capsys.readouterr().err.splitlines()
    failures = [e for e in err if e.startswith("wadkit: ") and "converted" not in e]
    assert len(failures) == 2
    assert str(bad) in failures[0] and "Traceback" not in "\n".join(err)
    assert str(missing) in failures[1]
    bars = [e for e in err if e.startswith("[")]
    assert [b.split()[1] for b in bars] == ["1/4", "2/4", "3/4", "4/4"]
    assert bars[-1].startswith("[" + "#" * 30 + "]")
    assert err[-1] == f"wadkit: converted 2 of 4 files to {out}"


def test_batch_same_names_do_not_overwrite(tmp_path, fake_open):
    out = tmp_path / "o"
    assert cli.main(["convert", "d1/a.fake", "d2/a.fake", "-o", str(out), "-j1"]) == 0
    assert sorted(os.listdir(out)) == ["a.glb", "a_2.glb"]


def test_progress_on_a_terminal():
    class Tty:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    t = Tty()
    p = _convert.Progress(2, stream=t, width=4)
    p.step("a/x.wad")
    p.message("wadkit: y.wad: broken")
    p.step("y.wad")
    assert t.text.startswith("\r\033[K[##..] 1/2 x.wad\r\033[Kwadkit: y.wad: broken\n")
    assert "[####] 2/2 y.wad" in t.text and t.text.endswith("s\n")


def test_unexpected_error_is_one_line_and_debug_shows_traceback(
        tmp_path, monkeypatch, capsys):
    def boom(path):
        raise KeyError("surprise")
    monkeypatch.setattr(_convert, "open_level", boom)
    assert cli.main(["convert", "a.wad", "-o", str(tmp_path / "x.glb")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error (KeyError" in err
    assert cli.main(["--debug", "convert", "a.wad", "-o",
                     str(tmp_path / "x.glb")]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_textures_command(tmp_path, fake_open, capsys):
    assert cli.main(["textures", "a.fake", str(tmp_path / "t")]) == 0
    assert sorted(os.listdir(tmp_path / "t")) == ["page_00.png", "page_01.png"]
    assert "2 textures" in capsys.readouterr().out


def test_floor_json(fake_open, capsys):
    assert cli.main(["floor", "a.fake", "57.204", "2.27", "43.733", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"position": [57.204, 2.27, 43.733],
                    "floor": {"height": 2.4744, "tile": 443, "polygon": 15,
                              "material": 0}}


def test_floor_json_verbose_and_miss(fake_open, capsys):
    assert cli.main(["floor", "a.fake", "1", "2", "3", "--json", "--verbose"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["candidates"] == [
        {"tile": 443, "polygon": 2, "material": 0, "branch": "floor",
         "skip": None, "passed": True, "chosen": False, "height": 2.27,
         "dist": 1859, "tolerance": -95, "edges": [525, 304, 850, 1101]},
        {"tile": 443, "polygon": 3, "material": 0x11, "branch": None,
         "skip": "material", "passed": False, "chosen": False, "height": None,
         "dist": None, "tolerance": None, "edges": None}]
    assert cli.main(["floor", "a.fake", "-1", "2", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["floor"] is None


def test_floor_text(fake_open, capsys):
    assert cli.main(["floor", "a.fake", "1", "2", "3", "--verbose"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1.0 2.0 3.0: floor at y 2.4744, tile 443 polygon 15 material 0x00"
    assert out[1] == ("  tile 443 poly 2 mat 0x00: height 2.27 dist 1859 "
                      "edges [525 304 850 1101] tol -95 pass")
    assert out[2].endswith("skip (material)")


def test_needles_json(fake_open, capsys):
    assert cli.main(["needles", "a.fake", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"file": "a.fake", "count": 1,
                    "needles": [{"tile": 443, "polygon": 15,
                                 "point": [57.199, 2.469, 43.735],
                                 "height": 2.469, "corner": 2,
                                 "fraction": 0.3, "below": 0.199}]}


def test_jsonable_converts_numpy():
    assert commands._jsonable({"a": np.float32(1.5), "b": np.arange(2),
                               "c": (np.int64(3),)}) == {"a": 1.5, "b": [0, 1],
                                                         "c": [3]}


# ---------------------------------------------------------------- import-mesh

class _Base(F.FakeEngLevel):
    saved = None

    def with_geometry(self, positions, triangles, uv, texture, color=None,
                      collision=None, keep_tiles=False, zones="flat",
                      default_texture=0):
        _Base.call = dict(positions=positions, triangles=triangles, uv=uv,
                          texture=texture, color=color, collision=collision,
                          keep_tiles=keep_tiles, zones=zones,
                          default_texture=default_texture)
        return self

    def save(self, path):
        _Base.saved = path


def test_import_mesh_maps_materials_to_texture_entries(tmp_path, monkeypatch):
    from wadkit import eng, export
    monkeypatch.setattr(eng, "open", lambda p: _Base(p))
    sc = export.eng_scene(F.FakeEngLevel(), collision=True)
    export.write(sc, tmp_path / "m.glb")
    coll = export.Scene(layers=[sc.layer("collision")], materials=sc.materials,
                        images=sc.images)
    export.write(coll, tmp_path / "c.obj")
    rc = cli.main(["import-mesh", "base.wad", str(tmp_path / "m.glb"),
                   str(tmp_path / "new.wad"), "--coll-mesh",
                   str(tmp_path / "c.obj"), "--zones", "keep",
                   "--default-tex", "1", "--keep-tiles"])
    assert rc == 0
    c = _Base.call
    assert _Base.saved == str(tmp_path / "new.wad")
    # world: 4 triangles; textures by material name: page00_b0 → entry 0,
    # page01_b2 → entry 1, flat ff0033 → entry 2 (as in the fake table)
    tex_of = {tuple(np.round(p, 3).ravel()): t for p, t in
              zip(c["positions"][c["triangles"]], c["texture"])}
    mesh = F.world_mesh()
    for tri, t in zip(mesh["positions"][mesh["triangles"]], mesh["texture"]):
        assert tex_of[tuple(np.round(tri, 3).ravel())] == t
    assert c["zones"] == "keep" and c["keep_tiles"] and c["default_texture"] == 1
    cpos, ctri, cmat = c["collision"]
    assert len(ctri) == 6 and sorted(cmat.tolist()) == [0, 0, 0, 0, 0x1E, 0x1E]


def test_needles_short_tuples_have_null_extras():
    assert commands.needle_record((1, 2, (0, 0, 0), 0.5)) == {
        "tile": 1, "polygon": 2, "point": [0.0, 0.0, 0.0], "height": 0.5,
        "corner": None, "fraction": None, "below": None}


def test_textures_for_unknown_material_names():
    t = commands.textures_for_materials(["page00_b0", "Material.001",
                                         "page09_b0", "flat_ff0033_b0"],
                                        F.TEXTURES, 7)
    assert t.tolist() == [0, 7, 7, 2]


def test_import_mesh_bad_mesh_is_one_line(tmp_path, monkeypatch, capsys):
    from wadkit import eng
    monkeypatch.setattr(eng, "open", lambda p: _Base(p))
    bad = tmp_path / "bad.obj"
    bad.write_text("f 1 2 3\n")
    assert cli.main(["import-mesh", "b.wad", str(bad), str(tmp_path / "n.wad")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.obj" in err and "does not exist" in err


def test_convert_level_without_geometry_api_is_one_line(tmp_path, monkeypatch, capsys):
    class Bare:
        pass
    monkeypatch.setattr(commands, "open_level", lambda p: Bare())
    monkeypatch.setattr(_convert, "open_level", lambda p: Bare())
    assert cli.main(["convert", "x.wad", "-o", str(tmp_path / "x.glb")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not built into this wadkit" in err
    assert "internal error" not in err
    assert cli.main(["textures", "x.wad", str(tmp_path / "t")]) == 1
    assert "not built" in capsys.readouterr().err


def test_output_closed_early_is_quiet():
    """A command whose reader went away (`wadkit needles … | head`) ends
    quietly with 141, as a Unix tool killed by SIGPIPE (run in a child: it
    redirects fd 1)."""
    import subprocess
    import sys
    code = ("import sys, wadkit.commands as m, wadkit.cli as c\n"
            "def boom(args):\n"
            "    raise BrokenPipeError(32, 'Broken pipe')\n"
            "m.cmd_needles = boom\n"
            "sys.exit(c.main(['needles', 'x.wad']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 141
    assert r.stderr == ""


def test_several_inputs_into_one_file_is_refused(tmp_path, fake_open, capsys):
    assert cli.main(["convert", "a.fake", "b.fake", "-o", str(tmp_path / "x.glb")]) == 1
    assert "need -o to be a folder" in capsys.readouterr().err
    assert not (tmp_path / "x.glb").exists()


def test_floor_and_needles_on_rc2_are_one_line(fake_open, capsys):
    assert cli.main(["floor", "x.fakerc2", "0", "0", "0"]) == 1
    assert cli.main(["needles", "x.fakerc2"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("not available" in e for e in err)


def test_eng_only_options_on_rc2_are_noted(tmp_path, fake_open, capsys):
    assert cli.main(["convert", "x.fakerc2", "-o", str(tmp_path / "r.glb"),
                     "--objects"]) == 0
    assert "--objects is ENG only (ignored)" in capsys.readouterr().err


def test_debug_after_the_command(tmp_path, monkeypatch, capsys):
    from wadkit import FormatError as wadkit_FormatError

    def boom(path):
        raise wadkit_FormatError("broken at 0x10")
    monkeypatch.setattr(commands, "open_level", boom)
    assert cli.main(["textures", "x.wad", str(tmp_path)]) == 1
    assert "Traceback" not in capsys.readouterr().err
    with pytest.raises(wadkit_FormatError):
        cli.main(["textures", "x.wad", str(tmp_path), "--debug"])
