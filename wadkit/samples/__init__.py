"""Sample levels built by wadkit's own writers, deterministic from a seed
(no game data ships with wadkit). docs/samples.md describes them.

    paths = wadkit.samples.write_samples("out", seed=0)
    # {'eng': 'out/sample_eng.wad', 'rc2': 'out/sample_rc2.wad'}

    python -m wadkit.samples OUTDIR [--seed N]
"""
from __future__ import annotations

import os

ENG_NAME = "sample_eng.wad"
RC2_NAME = "sample_rc2.wad"


def eng_level(seed: int = 0):
    """The ENG sample as a wadkit.eng.Level (built in memory)."""
    from . import _eng
    return _eng.build(seed)


def rc2_bytes(seed: int = 0) -> bytes:
    """The RC2 sample level file's bytes."""
    from . import _rc2
    return _rc2.build(seed)


def write_samples(outdir: str | os.PathLike, seed: int = 0) -> dict[str, str]:
    """Build both sample levels and write them into outdir (created when
    missing). Returns {'eng': path, 'rc2': path}. The same seed gives the
    same bytes."""
    import warnings

    from .. import _core
    outdir = os.fspath(outdir)
    os.makedirs(outdir, exist_ok=True)
    with warnings.catch_warnings():
        # the builders check their own reports; nothing here is the user's file
        warnings.simplefilter("error", _core.WadWarning)
        eng = eng_level(seed)
        rc2 = rc2_bytes(seed)
    paths = {"eng": os.path.join(outdir, ENG_NAME),
             "rc2": os.path.join(outdir, RC2_NAME)}
    eng.save(paths["eng"])
    tmp = paths["rc2"] + ".tmp"
    with open(tmp, "wb") as f:
        f.write(rc2)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, paths["rc2"])
    return paths
