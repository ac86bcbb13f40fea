"""The one lock helper: an OS lock (``flock``) on a file held open.

The kernel drops such a lock when its process dies, however it dies, so no lock is ever stale
and none is deleted to take it over. A lock file is opened without following a symlink: a link
planted at a lock's path is refused, never written through.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.errors import UserError

LOCK_FILE_MODE = 0o644


class Locked(UserError):
    """Another live process holds the lock; ``holder`` is what it wrote there (its pid)."""

    def __init__(self, path: Path, holder: str) -> None:
        self.holder = holder or "unknown"
        super().__init__(f"{path}: held by another process (pid {self.holder})")


class FileLock:
    """An exclusive (or shared) ``flock`` on ``path``, created if missing and never deleted.

    :meth:`acquire` raises :class:`Locked` when another process holds it and ``wait`` is false;
    a folder, a symlink or an unopenable file at ``path`` is a one-line :class:`UserError`.
    ``note`` (e.g. our pid) is written into the file once an exclusive lock is held.
    """

    def __init__(self, path: Path, *, shared: bool = False) -> None:
        self.path = Path(path)
        self.shared = shared
        self._handle: int | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def acquire(self, wait: bool = True, note: str = "") -> None:
        if self._handle is not None:
            return
        try:
            handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, LOCK_FILE_MODE)
        except IsADirectoryError:
            raise UserError(
                f"{self.path}: is a folder, not a lock file; remove it and try again"
            ) from None
        except OSError as exc:
            if self.path.is_symlink():
                raise UserError(
                    f"{self.path}: is a symbolic link, not a lock file; remove it and try again"
                ) from None
            raise UserError(f"{self.path}: cannot open lock file: {exc.strerror or exc}") from None
        mode = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        try:
            fcntl.flock(handle, mode | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            holder = _holder(handle)
            os.close(handle)
            raise Locked(self.path, holder) from None
        if note and not self.shared:
            os.ftruncate(handle, 0)
            os.pwrite(handle, f"{note}\n".encode(), 0)
        self._handle = handle

    def release(self) -> None:
        """Drop the lock (closing the file drops it)."""
        if self._handle is not None:
            os.close(self._handle)
            self._handle = None


@contextmanager
def file_lock(path: Path, *, wait: bool, shared: bool = False, note: str = "") -> Iterator[None]:
    """Hold :class:`FileLock` on ``path`` for the block."""
    lock = FileLock(path, shared=shared)
    lock.acquire(wait=wait, note=note)
    try:
        yield
    finally:
        lock.release()


def _holder(handle: int) -> str:
    """What the lock's holder wrote into it (its pid), for the message."""
    try:
        return os.pread(handle, 200, 0).decode(errors="replace").strip()
    except OSError:
        return ""
