"""Checking array arguments of the edit APIs (wadkit/_rc2_edit.py,
wadkit/_eng_edit.py): one function, so both say the same things the same
way."""
from __future__ import annotations

import numpy as np


def array(value, dtype, tail, name, *, integer=False, lo=None, hi=None, op=None,
          finite=False):
    """value as a C-contiguous array of dtype with shape (n, *tail), or
    ValueError naming the argument (after "op: " when op is given).
    integer: the values must be integers (bools count; an empty array of
    any number type passes) in lo..hi, else in dtype's range; finite: no
    NaN or infinity."""
    where = f"{op}: " if op else ""
    try:
        a = np.asarray(value)
    except Exception as exc:                  # ragged lists and the like
        raise ValueError(f"{where}{name} is not an array ({exc})") from None
    want = "(n" + "".join(f", {t}" for t in tail) + ")"
    if a.ndim != 1 + len(tail) or tuple(a.shape[1:]) != tuple(tail):
        raise ValueError(f"{where}{name} must have shape {want}, not {a.shape}")
    if a.dtype.kind not in "fiub" or (not integer and a.dtype.kind == "b"):
        raise ValueError(f"{where}{name} must hold numbers, not {a.dtype}")
    if integer and a.size:
        if a.dtype.kind not in "iub":
            raise ValueError(f"{where}{name} must hold integers, not {a.dtype}")
        if lo is not None or hi is not None:
            if (lo is not None and a.min() < lo) or (hi is not None and a.max() > hi):
                raise ValueError(f"{where}{name} must lie in {lo}..{hi}, found "
                                 f"{a.min()}..{a.max()}")
        elif a.min() < np.iinfo(dtype).min or a.max() > np.iinfo(dtype).max:
            raise ValueError(f"{where}{name} holds values outside {np.dtype(dtype).name}")
    out = np.ascontiguousarray(a, dtype=dtype)
    if finite and out.dtype.kind == "f" and not np.isfinite(out).all():
        raise ValueError(f"{where}{name} holds values that are not finite")
    return out
