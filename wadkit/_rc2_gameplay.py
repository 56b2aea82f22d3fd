"""RC2 gameplay and core class tables: the Python objects over what the C
core decodes (csrc/core/rc2/rc2_gameplay.c, rc2_classes.c). Layouts and
rules: docs/formats/rc2-gameplay.md ("Gameplay", "Core class tables")."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KINDS = ("tie", "shrub", "moby")


@dataclass(frozen=True)
class GameplayBlock:
    """One of the 39 gameplay header slots. offset 0 = absent. size runs to
    the next block (or the end); decoded = how many bytes from the start
    wadkit decodes (0: a block kept as raw bytes). Rewriting the decoded
    fields and then `tail` reproduces the block."""
    name: str
    slot: int
    offset: int
    size: int
    decoded: int
    data: memoryview

    @property
    def present(self) -> bool:
        return self.offset != 0

    @property
    def tail(self) -> memoryview:
        """The bytes after the decoded part (padding, or all of a raw block)."""
        return self.data[self.decoded:]


class Instances:
    """The instances of one kind ("tie", "shrub", "moby"), one NumPy array
    per field (docs/formats/rc2-gameplay.md lists them), each of length len(self):
    e.g. class_id (n,) int32, matrix (n, 4, 4) float32 for column vectors
    (translation in matrix[:, :3, 3]; matrix[:, 3, 3] is 1, the stored value
    is matrix_w for ties and shrubs; for mobys the matrix is computed from
    position, rotation and scale). header: the block's four header words as
    stored; block: its GameplayBlock (None when the level has none)."""

    def __init__(self, kind: str, arrays: dict | None, block: GameplayBlock | None,
                 fields: tuple):
        self.kind = kind
        self.block = block if block is not None and block.present else None
        if arrays is None:
            self.header = None
            arrays = {name: np.zeros((0, 4, 4) if n == 16 else (0, n) if n > 1 else 0,
                                     np.float32 if t != "i32" else np.int32)
                      for name, _, t, n in fields}
            if kind == "tie":
                arrays["ambient_record"] = np.zeros(0, np.int32)
        else:
            arrays = dict(arrays)
            self.header = arrays.pop("header")
        for a in arrays.values():
            a.flags.writeable = False
        self.arrays = arrays

    def __len__(self) -> int:
        return len(self.arrays["class_id"])

    def __getattr__(self, name: str):
        try:
            return self.__dict__["arrays"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return f"<RC2 {self.kind} instances: {len(self)}>"


@dataclass(frozen=True, eq=False)
class Rc2Class:
    """An entry of a core class table. offset into the decompressed
    core_data (0 = the class has no data there) and size (to the next block
    boundary); textures: indices into the kind's texture table up to the
    first 0xff, texture_slots all 16 bytes as stored; billboard: the shrub
    entry's 8 s16 (None for ties and mobys); entry: where the entry lies in
    core_index. data: the class's bytes, a view of core_data (decompressed
    on first use)."""
    kind: str
    index: int
    id: int
    offset: int
    size: int
    textures: tuple
    texture_slots: bytes
    word_8: int
    word_c: int
    billboard: tuple | None
    entry: int
    _level: object

    @property
    def data(self) -> memoryview:
        return memoryview(self._level.core_data)[self.offset:self.offset + self.size]

    def mesh(self, lod: int = 0) -> dict | None:
        """The class's mesh as NumPy arrays (wadkit.rc2.tie_mesh,
        shrub_mesh, moby_mesh; errors name the class and its core_data
        offset); None when the class has no data in this level."""
        if self.offset == 0 or self.size == 0:
            return None
        from .rc2 import class_mesh
        return class_mesh(self.kind, self, lod)

    def __repr__(self) -> str:
        return (f"<RC2 {self.kind} class {self.id}: {self.size} bytes at "
                f"core_data 0x{self.offset:x}>")


class ClassTable(tuple):
    """The classes of one kind in table order; by_id(number) finds one."""

    def by_id(self, number: int) -> Rc2Class:
        for c in self:
            if c.id == number:
                return c
        raise KeyError(number)

    @property
    def ids(self) -> np.ndarray:
        return np.array([c.id for c in self], dtype=np.int32)


def class_table(kind: str, t: dict, level) -> ClassTable:
    bb = t["billboard"]
    return ClassTable(
        Rc2Class(kind, i, int(t["id"][i]), int(t["offset"][i]), int(t["size"][i]),
                 tuple(int(x) for x in t["textures"][i][:t["n_textures"][i]]),
                 t["textures"][i].tobytes(), int(t["word_8"][i]), int(t["word_c"][i]),
                 None if bb is None else tuple(int(x) for x in bb[i]),
                 int(t["entry"][i]), level)
        for i in range(len(t["id"])))


def blocks(parsed: dict, gameplay: bytes) -> tuple:
    view = memoryview(gameplay)
    return tuple(GameplayBlock(name, slot, off, size, dec, view[off:off + size])
                 for name, slot, off, size, dec in parsed["blocks"])
