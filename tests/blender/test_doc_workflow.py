"""docs/blender-workflow.md stays true: the steps of tools/doc_pictures.py
run here without rendering, and every export summary and count the page
quotes (its lines `Export summary (<step>): `...`` and
`Run fact (<name>): `...``) is what the run gives now."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import doc_pictures  # noqa: E402

PAGE = os.path.join(ROOT, "docs", "blender-workflow.md")


def quoted(kind: str) -> dict:
    text = open(PAGE, encoding="utf-8").read()
    return dict(re.findall(rf"^{kind} \((\w+)\): `(.*)`\s*$", text, re.M))


def test_page_quotes_the_run(scene, tmp_path):
    summaries, state = doc_pictures.run(str(tmp_path))
    page = quoted("Export summary")
    assert set(page) == set(summaries), "the page quotes one summary per step"
    assert page == summaries
    facts = quoted("Run fact")
    assert facts and facts == doc_pictures.facts_quoted(state)


def test_every_picture_is_on_the_page():
    """Each step's picture is in docs/images and shown by the page."""
    text = open(PAGE, encoding="utf-8").read()
    for fn in doc_pictures.WORKFLOW + doc_pictures.ZONES:
        name = f"workflow_{fn.__name__[5:]}.png"
        assert os.path.getsize(os.path.join(ROOT, "docs", "images", name)) < 150_000
        assert f"(images/{name})" in text
