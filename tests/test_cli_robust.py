"""The command line as a newcomer meets it (issue 20): one line per error
and exit 1 — never a traceback — for bad coordinates, contradictory or
unknown outputs, levels missing a chunk; negative coordinates; a closed
pipe; warnings in wadkit's own format; --version. Levels from the
from-spec builders; run as `python -m wadkit` where the process matters."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import wadkit
from wadkit import _convert, cli
from builders import eng_level as L
from builders import eng_wad as B

import gltf_check as G

if not (hasattr(wadkit.eng.Level, "world_mesh") and hasattr(wadkit.eng.Level, "floor")):
    pytest.skip("ENG geometry/floor not in this build", allow_module_level=True)

from test_convert_e2e import run, small_level as level  # noqa: E402
from sanitizer import forks_the_pytest_worker  # noqa: E402


def one_line_error(r, *needles):
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("wadkit: "), r.stderr
    for n in needles:
        assert n in r.stderr, r.stderr


# ---------------------------------------------------------------- floor

@pytest.mark.parametrize("x", ["1e9", "nan", "inf", "-inf", "-1e9"])
def test_floor_outside_the_range_is_one_line(write, x):
    r = run("floor", write("l.wad", level()), x, "3", "4")
    one_line_error(r, "l.wad")
    assert ("finite" in r.stderr) if "n" in x else ("20.12 range" in r.stderr)


def test_floor_negative_coordinates(write):
    path = write("l.wad", level())
    r = run("floor", path, "-5", "3", "-1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["position"] == [-5.0, 3.0, -1.0]
    r = run("floor", path, "3.2", "-1e-3", "-2.5")   # on the tile, from below
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("3.2 -0.001 -2.5: ")
    # options anywhere, and `--` still works as argparse has it
    for argv in (["--json", path, "-.5", "-5.", "-1E2"], [path, "-.5", "--json", "-5.", "-1E2"],
                 ["--json", "--", path, "-.5", "-5.", "-1E2"]):
        args = cli.build_parser().parse_args(cli._negative_numbers_as_positionals(
            ["floor"] + argv))
        assert (args.x, args.y, args.z, args.json) == (-0.5, -5.0, -100.0, True)


def test_floor_on_the_level_tile(write):
    """The normal case still answers: the collision quad at y 1 over the tile."""
    r = run("floor", write("l.wad", level()), "3.5", "5", "2.5", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["floor"]["tile"] == 0


# ---------------------------------------------------------------- convert -o

def test_convert_refuses_unknown_extension_and_contradictions(write, tmp_path):
    src = write("l.wad", level())
    os.chdir(tmp_path)
    one_line_error(run("convert", src, "-o", "out.fbx"), ".fbx", "out.fbx/")
    one_line_error(run("convert", src, "-o", "x.glb", "--format", "obj"),
                   "x.glb is a .glb file but --format says obj")
    r = run("convert", src, src, "-o", "batch.glb")
    one_line_error(r, "2 input files need -o to be a folder")
    assert not r.stderr.startswith("wadkit: :")
    assert sorted(os.listdir(tmp_path)) == ["l.wad"]     # nothing was made
    # a folder of any name is still possible
    r = run("convert", src, "-o", "out.fbx/")
    assert r.returncode == 0, r.stderr
    assert os.listdir(tmp_path / "out.fbx") == ["l.glb"]


def test_single_convert_says_what_it_wrote(write, tmp_path):
    out = tmp_path / "x.glb"
    r = run("convert", write("l.wad", level()), "-o", str(out), "--collision")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout == f"wrote {out}: world 2 triangles, collision 2 triangles\n"


# ---------------------------------------------------------------- errors

def test_file_name_once_in_errors(write):
    path = write("empty.wad", b"")
    r = run("info", path)
    one_line_error(r, "not a level file")
    assert r.stderr.count("empty.wad") == 1
    with pytest.raises(wadkit.FormatError, match="^not a level file"):
        wadkit.open(path)


def _closed_pipe_run(*args):
    """The child's stdout is a pipe whose reader is already gone."""
    rd, wr = os.pipe()
    os.close(rd)
    try:
        return subprocess.run([sys.executable, "-m", "wadkit", *args], stdout=wr,
                              stderr=subprocess.PIPE, text=True)
    finally:
        os.close(wr)


def test_closed_pipe_is_quiet(write, tmp_path):
    """`wadkit … | head`: exit 141 (128 + SIGPIPE, as a shell reports a Unix
    tool there), nothing on stderr — whether the write fails inside the
    command (a long JSON) or at the final flush, and in demo (whose own
    error handling must not swallow it)."""
    many = B.wad([("INFO", B.info_payload())] + [(f"X{i:03d}", b"") for i in range(1000)])
    for args in (("info", write("many.wad", many), "--json"),
                 ("info", write("l.wad", level())),
                 ("demo", str(tmp_path / "demo"))):
        r = _closed_pipe_run(*args)
        assert (r.returncode, r.stderr) == (141, ""), args


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout == f"wadkit {wadkit.__version__}\n"


def test_warnings_are_wadkit_lines(monkeypatch, capsys):
    """A WadWarning a command meets is `wadkit: FILE: warning: …`, without
    Python's file/line/source form; other warnings say their category."""
    import warnings
    from wadkit import commands

    def warn(args):
        warnings.warn("odd thing at offset 0x10", wadkit.WadWarning)
        warnings.warn("a NumPy matter", RuntimeWarning)
        return 0
    monkeypatch.setattr(commands, "cmd_textures", warn)   # read by register()
    assert cli.main(["textures", "x.wad", "out"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "wadkit: x.wad: warning: odd thing at offset 0x10",
        "wadkit: x.wad: warning: a NumPy matter (RuntimeWarning)"]


# ---------------------------------------------------------------- missing chunks

def test_level_without_text_converts_untextured_with_a_warning(write, tmp_path):
    src = write("notext.wad", level(text=False))
    out = tmp_path / "n.glb"
    r = run("convert", src, "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr == f"wadkit: {src}: warning: no TEXT chunk: no texture pages, " \
                       "so the level is written untextured\n"
    gltf, binary = G.read_glb(out.read_bytes())
    G.check(gltf, binary)
    assert [m["name"] for m in gltf["materials"]] == ["untextured"]
    assert len(G.triangles(gltf, binary, "world")) == 2
    one_line_error(run("textures", src, str(tmp_path / "t")), "no TEXT chunk")
    assert run("info", src).returncode == 0


def test_level_without_map(write, tmp_path):
    src = write("nomap.wad", level(map_=False, stpc=True))
    r = run("convert", src, "-o", str(tmp_path / "a.glb"))
    one_line_error(r, "no MAP chunk", "--objects")
    assert "internal error" not in r.stderr
    r = run("convert", src, "-o", str(tmp_path / "b.glb"), "--objects")
    assert r.returncode == 0, r.stderr
    assert "warning: no MAP chunk" in r.stderr
    gltf, binary = G.read_glb((tmp_path / "b.glb").read_bytes())
    assert len(G.triangles(gltf, binary, "objects")) == 1
    for cmd in (("floor", src, "1", "2", "3"), ("needles", src)):
        one_line_error(run(*cmd), "no MAP chunk")
    bare = write("bare.wad", level(map_=False))
    one_line_error(run("convert", bare, "-o", str(tmp_path / "c.glb"), "--objects"),
                   "no MAP chunk")


def test_batch_with_missing_chunks_is_a_line_each(write, tmp_path):
    a = write("notext.wad", level(text=False))
    b = write("nomap.wad", level(map_=False))
    r = run("convert", a, b, "-o", str(tmp_path / "o"), "-j", "2")
    assert r.returncode == 1
    lines = [x for x in r.stderr.splitlines() if x.startswith("wadkit: ")]
    assert lines == [f"wadkit: {a}: warning: no TEXT chunk: no texture pages, so the "
                     "level is written untextured",
                     f"wadkit: {b}: no MAP chunk in this WAD: the level has no tiles: "
                     "nothing to convert",
                     f"wadkit: converted 1 of 2 files to {tmp_path / 'o'}"]


# ---------------------------------------------------------------- materials

def test_gltf_material_names_are_unique(tmp_path):
    """World and objects share texture-table materials: one material each,
    used by both trees (the sample level had page03_b0 twice)."""
    from wadkit import export, samples
    lvl = samples.eng_level(0)
    sc = export.eng_scene(lvl, collision=True, objects=True)
    names = [m.name for m in sc.materials]
    assert len(names) == len(set(names))
    used = {int(m) for layer in sc.layers for m in np.unique(layer.mesh["material"])}
    assert used == set(range(len(names)))            # none unused
    world = {int(m) for m in np.unique(sc.layer("world").mesh["material"])}
    objects = {int(m) for m in np.unique(sc.layer("objects").mesh["material"])}
    assert world & objects                           # shared, not copied


def test_add_materials_merges_equal_and_renames_clashes():
    from wadkit.export import Material, Scene
    sc = Scene(materials=[Material("a"), Material("b", 0)])
    index = sc.add_materials([Material("b", 0), Material("a", 1), Material("a", 2),
                              Material("c")])
    assert index.tolist() == [1, 2, 3, 4]
    assert [m.name for m in sc.materials] == ["a", "b", "a.2", "a.3", "c"]


# ---------------------------------------------------------------- -j

def test_pool_writes_what_a_serial_run_writes(write, tmp_path):
    """The same files, byte for byte, and the same messages in the same
    order, for -j 1 (in process) and -j 2 (worker processes); a bad file
    is one line in both."""
    data, _ = L.realistic_level(n_tiles=300)
    files = [write("real.wad", data), write("bad.wad", data[:len(data) // 3]),
             write("notext.wad", level(text=False)), write("real2.wad", data)]
    files.insert(2, files[0])                          # a repeated stem: real_2.glb
    out = {}
    for j in ("1", "2"):
        r = run("convert", *files, "-o", str(tmp_path / j), "--collision", "-j", j)
        assert r.returncode == 1
        out[j] = r.stderr.replace(str(tmp_path / j), "OUT")
    assert out["1"] == out["2"]
    lines = out["1"].splitlines()
    assert [x.split()[1] for x in lines if x.startswith("[")] == \
        [f"{i}/5" for i in range(1, 6)]
    failures = [x for x in lines if x.startswith("wadkit: ") and "warning" not in x]
    assert len(failures) == 2 and files[1] in failures[0]
    assert failures[-1] == "wadkit: converted 4 of 5 files to OUT"
    names = sorted(os.listdir(tmp_path / "1"))
    assert names == ["notext.glb", "real.glb", "real2.glb", "real_2.glb"]
    assert sorted(os.listdir(tmp_path / "2")) == names
    for n in names:
        assert (tmp_path / "1" / n).read_bytes() == (tmp_path / "2" / n).read_bytes(), n


@forks_the_pytest_worker
def test_a_dead_worker_is_one_line(tmp_path, monkeypatch):
    """A worker that dies (a crash in C would) fails its file with one
    line, and only its file; run_batch reports every job once, in order."""
    jobs = [_convert.Job(f"f{i}.wad", str(tmp_path / f"f{i}.glb"), "glb") for i in range(3)]
    monkeypatch.setattr(_convert, "run_job", _die_on_f1)
    got = []
    _convert.run_batch(jobs, 2, got.append)
    assert [d.job.src for d in got] == ["f0.wad", "f1.wad", "f2.wad"]
    assert [d.ok for d in got] == [True, False, True]
    assert len(got[1].lines) == 1
    assert "worker process converting it died" in got[1].lines[0]
    assert got[1].lines[0].startswith("wadkit: f1.wad: internal error (RuntimeError")


def _die_on_f1(job):
    if job.src == "f1.wad":
        os._exit(3)
    return _convert.Done(job, True, [], None)


def test_error_names_the_file_the_command_was_reading(write, tmp_path):
    """import-mesh reads three files; its error names the one that failed
    (here the write path refusing the mesh for the base level)."""
    base = write("base.wad", level())
    mesh = tmp_path / "far.obj"
    mesh.write_text("v -5 0 -5\nv -4 0 -5\nv -4 0 -4\nf 1 2 3\n")
    r = run("import-mesh", base, str(mesh), str(tmp_path / "new.wad"))
    one_line_error(r, f"wadkit: {base}: ")
    assert not (tmp_path / "new.wad").exists()


def test_ctrl_c_stops_a_batch_quietly(write, tmp_path):
    """SIGINT during a pooled batch: exit 130 (128 + SIGINT), no traceback
    from the parent or a worker, and the levels not yet started are not
    converted."""
    import signal
    data, _ = L.realistic_level(n_tiles=300)
    files = [write(f"l{i}.wad", data) for i in range(12)]
    p = subprocess.Popen([sys.executable, "-m", "wadkit", "convert", *files, "-o",
                          str(tmp_path / "o"), "--collision", "-j", "2"],
                         stderr=subprocess.PIPE, text=True)
    first = p.stderr.readline()              # the first level is done
    assert first.startswith("[") and " 1/12 " in first, first
    p.send_signal(signal.SIGINT)
    rest = p.stderr.read()
    assert p.wait(timeout=120) == 130, rest
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    assert len(os.listdir(tmp_path / "o")) < 12


def test_demo_and_info_count_tiles_alike(tmp_path):
    """The demo's line and `info` both give the MAP's tiles and those with
    faces (one definition: commands.eng_counts), and a converted world has
    one node per tile with faces."""
    r = run("demo", str(tmp_path))
    assert r.returncode == 0, r.stderr
    wad = str(tmp_path / "sample_eng.wad")
    c = json.loads(run("info", wad, "--json").stdout)["counts"]
    line = next(x for x in r.stdout.splitlines() if x.startswith(wad + ":"))
    assert line.endswith(f"{c['triangles']} triangles in {c['tiles']} tiles "
                         f"({c['tiles_with_faces']} with faces)"), line
    assert f"tiles {c['tiles']} ({c['tiles_with_faces']} with faces)" in run("info", wad).stdout
    gltf, _ = G.read_glb((tmp_path / "sample_eng.glb").read_bytes())
    world = next(n for n in gltf["nodes"] if n.get("name") == "world")
    assert len(world["children"]) == c["tiles_with_faces"] < c["tiles"]
    # the RC2 line: the counts `info` gives for the same file
    wad = str(tmp_path / "sample_rc2.wad")
    c = json.loads(run("info", wad, "--json").stdout)["counts"]
    line = next(x for x in r.stdout.splitlines() if x.startswith(wad + ":"))
    assert line.endswith(
        f"{c['triangles']} terrain triangles in {c['patches']} patches, {c['ties']} ties, "
        f"{c['shrubs']} shrubs, {c['mobys']} mobys, {c['collision_faces']} collision "
        f"faces, {c['sky_shells']} sky shells"), line
    assert min(c["ties"], c["shrubs"], c["mobys"], c["collision_faces"], c["sky_shells"]) > 0


def test_an_argument_the_api_refuses_is_one_line(write, tmp_path):
    src = write("x.bin", b"some bytes to compress" * 10)
    out = tmp_path / "x.lz"
    assert run("lz", "c", src, str(out)).returncode == 0
    one_line_error(run("lz", "d", str(out), str(tmp_path / "y"), "--max-size", "-1"),
                   "max_size")
