"""The base level written early: while the export compares the scene, a
thread writes the base level (wadkit's save, which releases the GIL: build,
verify, temp file, fsync, rename, folder fsync) under a hidden name beside
the target. When the export finds nothing changed, that file is renamed
over the target and the folder fsynced: the same bytes, as atomic and
durable as level.save(target), most of the write's wait spent beside the
compare (docs/performance-eng-export.md "Round three"). Any doubt (an
error, the target not a plain writable file, its mode not the new file's,
the source itself): the early file is removed and the caller saves as
before, with level.save's own checks and errors."""
from __future__ import annotations

import os
import secrets
import stat
import threading


def _target_mode(path: str):
    """None: no file there; -1: not a plain writable file (the caller's
    save decides); else its permission bits."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return -1
    if not stat.S_ISREG(st.st_mode) or not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        return -1
    return stat.S_IMODE(st.st_mode)


class EarlyWrite:
    def __init__(self, lvl, out_path: str):
        out = os.path.abspath(os.fspath(out_path))
        folder, name = os.path.split(out)
        self.out, self.lvl = out, lvl
        self.tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.early")
        self.mode = _target_mode(out)
        self.ok = False
        self.thread = threading.Thread(target=self._write, daemon=True)
        self.thread.start()

    def _write(self) -> None:
        try:
            self.lvl.save(self.tmp)
            self.ok = True
        except Exception:       # the caller's own save will say what is wrong
            self.ok = False

    def commit(self) -> bool:
        """Put the early file in place of the target; False: it was not
        (removed; the caller saves as before)."""
        self.thread.join()
        if not self.ok or self.mode == -1 or _target_mode(self.out) != self.mode:
            return self.discard()
        src = getattr(self.lvl, "path", None)
        try:
            if self.mode is not None and src is not None and os.path.samefile(self.out, src):
                return self.discard()
            if self.mode is not None and stat.S_IMODE(os.stat(self.tmp).st_mode) != self.mode:
                return self.discard()
            os.replace(self.tmp, self.out)
            fd = os.open(os.path.dirname(self.out), os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            return self.discard()
        return True

    def discard(self) -> bool:
        self.thread.join()
        try:
            os.unlink(self.tmp)
        except FileNotFoundError:
            pass
        return False
