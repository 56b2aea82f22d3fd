"""RGBA arrays → PNG, with Pillow (a maintained, widely installed encoder;
PNG's zlib + CRC chunk framing is not worth writing again). Pillow is
imported on first use, so the rest of wadkit.export (e.g. model_uvs, which
the Blender add-on uses) works where Pillow is not installed (Blender)."""
from __future__ import annotations

import io
import os

import numpy as np


def _image(rgba):
    from PIL import Image
    a = np.ascontiguousarray(rgba, dtype=np.uint8)
    if a.ndim != 3 or a.shape[2] != 4:
        raise ValueError(f"expected an (H,W,4) RGBA array, got shape {a.shape}")
    return Image.fromarray(a)          # (H,W,4) uint8 → mode RGBA


def png_bytes(rgba) -> bytes:
    buf = io.BytesIO()
    _image(rgba).save(buf, format="PNG")
    return buf.getvalue()


def write_png(rgba, path: str | os.PathLike) -> None:
    _image(rgba).save(os.fspath(path), format="PNG")


def read_png(data_or_path) -> np.ndarray:
    """PNG (bytes or path) → (H,W,4) uint8; for tests and round trips."""
    src = io.BytesIO(data_or_path) if isinstance(data_or_path, (bytes, bytearray)) \
        else os.fspath(data_or_path)
    from PIL import Image
    with Image.open(src) as im:
        return np.asarray(im.convert("RGBA"))
