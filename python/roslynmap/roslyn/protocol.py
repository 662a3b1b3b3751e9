"""Length-prefixed JSON frames on a private pipe between the worker and its parent."""

from __future__ import annotations

import os
import struct
from typing import Any

import orjson

_HEADER = struct.Struct(">I")


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
