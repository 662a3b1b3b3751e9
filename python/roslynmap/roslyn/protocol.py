"""Length-prefixed JSON frames on a private pipe between the worker and its parent.

Every request carries an `id` and a `deadline_s` (seconds it may go without progress); every frame the
worker sends back for it (progress events, the result) carries the same `id`.
"""

from __future__ import annotations

import os
import select
import struct
from typing import Any

import orjson

from roslynmap.model import settings

_HEADER = struct.Struct(">I")

DEADLINE_ENV = settings.WORKER_DEADLINE_SECONDS
DEFAULT_DEADLINE_S = settings.DEFAULT_WORKER_DEADLINE_S
GRACE_S = 30.0  # the parent waits this much longer, so the worker's own watchdog reports first


def deadline_seconds() -> float:
    """How long one request may go without a progress frame before the worker counts as stalled."""
    return settings.current().worker_deadline_s


def write_frame(fd: int, message: dict[str, Any]) -> None:
    body = orjson.dumps(message)
    data = _HEADER.pack(len(body)) + body
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> dict[str, Any] | None:
    """The next message, or None when the other side closed the pipe."""
    header = _read_exact(fd, _HEADER.size)
    if header is None:
        return None
    body = _read_exact(fd, _HEADER.unpack(header)[0])
    if body is None:
        return None
    message: dict[str, Any] = orjson.loads(body)
    return message


def readable(fd: int, timeout: float) -> bool:
    """Whether a frame (or end of file) is waiting on `fd` within `timeout` seconds."""
    ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
    return bool(ready)
