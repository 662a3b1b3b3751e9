"""meta.tokens_saved: tokens of the whole files a response points into, minus tokens it emitted.

An upper bound on what reading those files instead would have cost (labelled so): the agent might
not have read every file whole. File sizes are measured (stat), never assumed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import orjson

from roslynmap.mcp.envelope import CHARS_PER_TOKEN
from roslynmap.model.envelope import Envelope

MAX_FILES = 200


# Every `"file": "<path>"` pair, found in the serialized data: a regex over one orjson dump is several
# times cheaper than walking a graph of hundreds of nested dicts in Python.
_FILE_FIELD = re.compile(rb'"file":"((?:[^"\\]|\\.)*)"')


def referenced_files(data: Any) -> list[str]:
    """The distinct `file` values anywhere in `data`, in order of appearance, at most MAX_FILES."""
    found: dict[str, None] = {}
    for raw in _FILE_FIELD.findall(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)):
        found[json.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode()] = None
        if len(found) >= MAX_FILES:
            break
    return list(found)


def file_tokens(root: Path, rel: str) -> int:
    path = os.path.join(root, rel)  # not Path: this runs for every file of every response
    try:
        size = os.stat(path).st_size
    except OSError:
        return 0
    return -(-size // CHARS_PER_TOKEN)


def whole_file_tokens(env: Envelope, root: Path) -> int:
    files = referenced_files(env.get("data"))
    return sum(file_tokens(root, rel) for rel in files)
