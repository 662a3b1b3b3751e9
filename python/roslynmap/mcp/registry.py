"""The tool registry: name, description, parameter model, handler, annotations. No MCP types here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from roslynmap.mcp.output import ToolOutput


class BaseParams(BaseModel):
    """Every tool takes repo_path and token_budget. Numbers and booleans sent as strings are accepted.

    The shared parameters (SHARED) are explained once, in the server instructions and roslynmap_guide,
    not on every tool: the tool list is paid for in every conversation (docs/tools.md, "Cost")."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    repo_path: str | None = None  # default: the server's --repo
    token_budget: int | None = None  # default 3000, clamped to 100..10000


class WorkspaceParams(BaseParams):
    """Query tools answer from a workspace overlay (an agent's uncommitted edits) when given one."""

    workspace_id: str | None = None  # answer from this workspace's overlay over the baseline
    # committed: baseline only; workspace (default with workspace_id): overlay; ephemeral: overlay plus
    # virtual_files ({repo-relative path: content} read instead of disk) for span reads.
    consistency: Literal["committed", "workspace", "ephemeral"] | None = None
    virtual_files: dict[str, str] | None = None


SHARED = frozenset({"repo_path", "token_budget", "workspace_id", "consistency", "virtual_files"})
SPAN_ONLY = frozenset({"consistency", "virtual_files"})  # advertised only by tools that read source lines
# Taken by every tool, advertised by one (~35 characters on each of 34 tools): the defaults fit (the server's
# --repo, a 3000-token budget); the server instructions and roslynmap_guide explain both, a call without a
# repository answers the exact repo_path to pass, and repo_status, the first call, lists repo_path.
UNLISTED = frozenset({"repo_path", "token_budget"})
LISTS_REPO_PATH = "repo_status"
SHARED_HELP = (
    "Every tool takes repo_path (default: the server's --repo) and token_budget (default 3000, 100..10000), "
    "unlisted. "
    "Query tools take workspace_id (answer from that workspace's overlay: your uncommitted edits, after "
    "index_refresh_overlay) and consistency (committed | workspace | ephemeral); with ephemeral, the source-reading "
    "tools read virtual_files {repo-relative path: content} instead of disk."
)


def split_list(value: Any) -> Any:
    """`"Class,Method"` and `["Class", "Method"]` are both accepted for list parameters."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class ListParamsMixin(BaseModel):
    @field_validator("*", mode="before")
    @classmethod
    def _lists_from_strings(cls, value: Any, info: Any) -> Any:
        annotation = str(cls.model_fields[info.field_name].annotation)
        return split_list(value) if "list" in annotation else value


Handler = Callable[[Any, str], ToolOutput]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: type[BaseParams]
    handler: Handler
    read_only: bool = True
    idempotent: bool = True
    slow: bool = False  # runs off the event loop (compiles)
    needs_repo: bool = True
    destructive: bool = False  # deletes something the user may want (MCP destructiveHint)
    spans: bool = False  # reads source lines: advertises consistency and virtual_files

    def input_schema(self) -> dict[str, Any]:
        """The parameters' JSON schema as the tool list shows it, in as few characters as keep its meaning."""
        schema: dict[str, Any] = compact_schema(self.params.model_json_schema())
        properties: dict[str, Any] = schema.get("properties", {})
        for name in SHARED & set(properties):
            if (name in UNLISTED and not (name == "repo_path" and self.name == LISTS_REPO_PATH)) \
                    or (name in SPAN_ONLY and not self.spans):
                del properties[name]  # still accepted: explained in the instructions and the guide
            else:
                properties[name].pop("description", None)
        return schema


VALIDATED_ONLY = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "pattern"})


def compact_schema(node: Any, names: bool = False) -> Any:
    """pydantic's schema without what a model never needs: titles, `anyOf [T, null]` for optional
    parameters (optional is not being `required`), defaults null, false and 0, and the constraints the
    server checks itself with a clear error (`additionalProperties: false`, bounds, patterns)."""
    if isinstance(node, list):
        return [compact_schema(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        # `names`: the keys are parameter names (a parameter may be called `pattern`), never dropped.
        if not names and ((key == "title" and isinstance(value, str)) or key in VALIDATED_ONLY
                          or (key == "default" and value in (None, False, 0))
                          or (key == "additionalProperties" and value is False)):
            continue
        out[key] = compact_schema(value, names=key in ("properties", "$defs") and not names)
    choices = out.get("anyOf")
    if isinstance(choices, list):
        rest = [c for c in choices if c != {"type": "null"}]
        if len(rest) == 1:
            del out["anyOf"]
            out = {**rest[0], **out}
    return out


TOOLS: dict[str, Tool] = {}


def tool(
    name: str, params: type[BaseParams], *, read_only: bool = True, idempotent: bool = True, slow: bool = False,
    destructive: bool = False, needs_repo: bool = True, spans: bool = False,
) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        description = " ".join((handler.__doc__ or "").split())  # docstring line breaks cost tokens
        assert len(description.encode()) < 2048, f"{name}: description over 2 KB"
        TOOLS[name] = Tool(name, description, params, handler, read_only, idempotent, slow, destructive=destructive,
                           needs_repo=needs_repo, spans=spans)
        return handler

    return register
