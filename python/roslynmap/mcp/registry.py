"""The tool registry: name, description, parameter model, handler, annotations. No MCP types here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from roslynmap.mcp.output import ToolOutput


class BaseParams(BaseModel):
    """Every tool takes repo_path and token_budget. Numbers and booleans sent as strings are accepted."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    repo_path: str | None = Field(
        default=None, description="Repository root. Defaults to the server's --repo."
    )
    token_budget: int | None = Field(
        default=None, description="Max tokens of the response (default 3000, clamped to 100..10000)."
    )


class WorkspaceParams(BaseParams):
    """Query tools answer from a workspace overlay (an agent's uncommitted edits) when given one."""

    workspace_id: str | None = Field(
        default=None, description="Answer from this workspace's overlay over the baseline (workspace_create)."
    )
    consistency: Literal["committed", "workspace", "ephemeral"] | None = Field(
        default=None, description="committed: baseline only; workspace (default with workspace_id): overlay; "
        "ephemeral: overlay plus virtual_files for span reads.",
    )
    virtual_files: dict[str, str] | None = Field(
        default=None, description="ephemeral only: {repo-relative path: content} read instead of disk.",
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


TOOLS: dict[str, Tool] = {}


def tool(
    name: str, params: type[BaseParams], *, read_only: bool = True, idempotent: bool = True, slow: bool = False,
    destructive: bool = False, needs_repo: bool = True,
) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        description = (handler.__doc__ or "").strip()
        assert len(description.encode()) < 2048, f"{name}: description over 2 KB"
        TOOLS[name] = Tool(name, description, params, handler, read_only, idempotent, slow, destructive=destructive,
                           needs_repo=needs_repo)
        return handler

    return register
