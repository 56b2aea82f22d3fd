"""`wadkit info` on fixtures, text and JSON, and errors without tracebacks."""
import json
import subprocess
import sys

import wadkit
from builders import eng_wad as B


def run(*args):
    return subprocess.run([sys.executable, "-m", "wadkit", *args],
                          capture_output=True, text=True)


def test_info_text(write):
    path = write("lvl.wad", B.sample_wad())
    r = run("info", path)
    assert r.returncode == 0, r.stderr
    assert "ENG level WAD" in r.stdout
    for tag in ("INFO", "TEXT", "TRAK", "MAP", "END"):
        assert tag in r.stdout
    assert "0x1c" in r.stdout  # TEXT header at offset 28


def test_info_json(write):
    data = B.sample_wad()
    path = write("lvl.wad", data)
    r = run("info", path, "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["format"] == "eng"
    assert info["size"] == len(data) == info["declared_length"]
    assert [c["tag"] for c in info["chunks"]][:3] == ["INFO", "WFPC", "TEXT"]
    assert info["chunks"][2] == {"tag": "TEXT", "offset": 28, "size": 768,
                                 "size_field": 768}
    assert info["warnings"] == []


def test_info_json_lists_warnings(write):
    path = write("lvl.wad", B.wad([("INFO", B.info_payload())], trailing=b"xx"))
    info = json.loads(run("info", path, "--json").stdout)
    assert any("after the END" in w for w in info["warnings"])


def test_bad_file_is_one_line_error(write):
    path = write("bad.wad", B.sample_wad()[:40])
    r = run("info", path)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "bad.wad" in r.stderr


def test_unknown_format(write):
    path = write("x.bin", b"hello world, not a wad")
    r = run("info", path)
    assert r.returncode == 1 and "not a level file" in r.stderr


def test_open_detects_eng(write):
    lvl = wadkit.open(write("lvl.wad", B.sample_wad()))
    assert isinstance(lvl, wadkit.eng.Level)
