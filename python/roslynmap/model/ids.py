"""Symbol id formats (DESIGN §5): Roslyn documentation-comment ids and structural stable ids."""

from __future__ import annotations

import re

DOC_ID = re.compile(r"^[NTMPFE]:[^\s]+$")
STABLE_ID = re.compile(r"^sym_[0-9a-f]{16}$")
ID_FORMAT_HINT = (
    "symbol_id is a Roslyn documentation id such as 'T:Shop.Orders.OrderService' or "
    "'M:Shop.Orders.OrderService.Place(Shop.Orders.Order)', or a stable id 'sym_' + 16 hex; "
    "find one with symbols_search."
)


def is_doc_id(value: str) -> bool:
    return bool(DOC_ID.match(value))


def is_stable_id(value: str) -> bool:
    return bool(STABLE_ID.match(value))


def name_from_doc_id(value: str) -> str:
    """The simple name inside a doc id, for did-you-mean searches: `M:A.B.Save(X)` -> `Save`."""
    body = value[2:] if len(value) > 2 and value[1] == ":" else value
    body = body.split("(", 1)[0].split("~", 1)[0]
    last = body.rsplit(".", 1)[-1]
    return last.split("`", 1)[0].replace("#ctor", "").replace("#", "")
