"""An exclusive file lock whose file its holder may delete (with the folder it is in).

A plain flock on a path breaks when the file is unlinked: a waiter that opened the old file gets the
lock on an inode no name points to, while the next process creates a new file and locks that one, so
both hold "the lock". Here every acquirer checks, once it holds the flock, that the path still names
the file it locked, and otherwise starts over (recreating the folder if needed). So `remove_locked`
may unlink the lock file while holding it and waiters still take turns. Without fcntl (Windows) the
filelock package is used and the file is removed just after release, if nobody has it open (Windows
refuses to delete an open file, so a waiter keeps it).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

POLL_S = 0.05


class HeldLock:
    """The lock while held: `remove_locked` deletes its file before release."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path, self.fd = path, fd
        self.remove_after: bool | None = None  # Windows: remove (folder too?) once released

    def remove_locked(self, folder_too: bool = False) -> None:
        if self.fd is None:
            self.remove_after = folder_too
            return
        _remove(self.path, folder_too)


def _remove(path: Path, folder_too: bool) -> None:
    with contextlib.suppress(OSError):  # Windows: open elsewhere, so someone waits on it
        path.unlink(missing_ok=True)
    if folder_too:
        with contextlib.suppress(OSError):  # not empty: someone else's files stay with it
            path.parent.rmdir()


def _try_lock(path: Path) -> int | None:
    """A descriptor holding the flock on the file `path` names now, or None (busy, or replaced meanwhile)."""
    assert fcntl is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except FileNotFoundError:  # the folder was removed between mkdir and open
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    try:
        same = os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        same = False
    if not same:  # its holder removed it while we waited: lock whatever the path names now
        os.close(fd)
        return None
    return fd


@contextlib.contextmanager
def exclusive(path: Path, timeout: float) -> Iterator[HeldLock]:
    """Holds the lock on `path` (creating it and its folder); raises filelock.Timeout after `timeout` s."""
    if fcntl is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        held = HeldLock(path, None)
        with FileLock(str(path), timeout=timeout):
            yield held
        if held.remove_after is not None:
            _remove(path, held.remove_after)
        return
    deadline = time.monotonic() + timeout
    while (fd := _try_lock(path)) is None:
        if time.monotonic() >= deadline:
            raise Timeout(str(path))
        time.sleep(POLL_S)
    try:
        yield HeldLock(path, fd)
    finally:
        os.close(fd)  # releases the flock
