"""What the ENG and the RC2 export share: finding the imported level
collection the export works on, and the error they show as a report."""
from __future__ import annotations

NAMES = {"eng": "ENG", "rc2": "RC2"}


class ExportError(Exception):
    """An export problem to show the user (a report), nothing written."""


def level_collections(scene, fmt: str) -> list:
    """The scene's collections an import of format fmt ("eng", "rc2") made
    (their wadkit_format property)."""
    if scene is None:
        return []
    return [c for c in scene.collection.children_recursive if c.get("wadkit_format") == fmt]


def level_collection(context, fmt: str):
    """The imported level collection of format fmt the export works on: the
    active object's, else the only one in the scene; ExportError otherwise."""
    found = level_collections(context.scene, fmt)
    ob = context.active_object
    if ob is not None:
        for c in found:
            if ob.name in c.all_objects:
                return c
    if len(found) == 1:
        return found[0]
    name = NAMES[fmt]
    raise ExportError(f"select an object of the imported {name} level to export"
                      if found else f"no imported {name} level in the scene")
