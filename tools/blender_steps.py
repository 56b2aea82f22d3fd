"""What the by-hand Blender profiles (tools/profile_blender_eng.py,
profile_blender_rc2.py) share: functions of the add-on wrapped so that
each adds its time to a step, the whole operators timed beside Blender's
own, and the medians printed. Run inside Blender's Python (bpy)."""
from __future__ import annotations

import collections
import statistics
import time

import bpy

STEPS: dict[str, float] = collections.defaultdict(float)


def wrap(owner, name: str, label: str) -> None:
    """owner.name (a function or class) adds its time to STEPS[label]."""
    f = getattr(owner, name)

    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            STEPS[label] += time.perf_counter() - t
    setattr(owner, name, timed)


def empty() -> None:
    """Blender's factory scene, the add-on registered."""
    import blender_addon
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        blender_addon.register()
    except ValueError:          # already registered
        pass


class Runs:
    """Seconds per label over the rounds; steps() moves STEPS in."""

    def __init__(self):
        self.times = collections.defaultdict(list)

    def timed(self, label: str, fn) -> None:
        STEPS.clear()
        t = time.perf_counter()
        fn()
        self.times[label].append(time.perf_counter() - t)

    def steps(self, prefix: str = "") -> None:
        for k, v in STEPS.items():
            self.times[prefix + k].append(v)
        STEPS.clear()

    def print(self, wad: str, rounds: int) -> None:
        print(f"bpy {bpy.app.version_string}, {wad}, medians of {rounds}")
        for k, v in self.times.items():
            print(f"  {statistics.median(v) * 1e3:8.1f} ms  {k}")
