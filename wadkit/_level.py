"""What eng.Level and rc2.Level share: they hold their file mapped (through
the binding object) until close(), and are context managers."""
from __future__ import annotations


class MappedLevel:
    """A level whose binding object (and so the mapped file) is held until
    close(). _KEEP names the attributes that stay readable afterwards
    (metadata read at open); everything else is dropped, so no parse keeps
    a view of the file alive."""

    _KEEP: tuple[str, ...] = ()

    def _held(self):
        obj = self.__dict__.get("_held_obj")
        if obj is None:
            raise ValueError("the level is closed")
        return obj

    def _hold(self, obj) -> None:
        self.__dict__["_held_obj"] = obj

    @property
    def closed(self) -> bool:
        return self.__dict__.get("_held_obj") is None

    def close(self) -> None:
        """Let go of the file (the mapping ends once no array or view made
        from it is left). Using the level afterwards raises ValueError."""
        for name in [n for n in self.__dict__ if n not in self._KEEP]:
            del self.__dict__[name]

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _where(self) -> str:
        path = getattr(self, "path", None)
        return repr(path) if path else "in memory"
