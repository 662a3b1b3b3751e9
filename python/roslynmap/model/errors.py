"""Errors that become `ok:false` envelopes. Any layer may raise them; only the tool boundary catches."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from roslynmap.model.envelope import ErrorBody


class ErrorCode(StrEnum):
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    NOT_FOUND = "NOT_FOUND"
    AMBIGUOUS = "AMBIGUOUS"
    INDEX_NOT_AVAILABLE = "INDEX_NOT_AVAILABLE"
    WORKSPACE_REQUIRED = "WORKSPACE_REQUIRED"
    WORKSPACE_NOT_FOUND = "WORKSPACE_NOT_FOUND"
    COMPILATION_FAILED = "COMPILATION_FAILED"
    PATH_OUTSIDE_REPO = "PATH_OUTSIDE_REPO"
    BUSY = "BUSY"
    INTERNAL = "INTERNAL"


RETRYABLE = {ErrorCode.INDEX_NOT_AVAILABLE, ErrorCode.BUSY}


class RoslynMapError(Exception):
    """A failure the caller can act on: a stable code, a message and a hint for the next step."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        hint: str = "",
        candidates: list[dict[str, Any]] | None = None,
        retryable: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.candidates = candidates
        self.retryable = code in RETRYABLE if retryable is None else retryable  # a stalled worker: yes

    def to_dict(self) -> ErrorBody:
        out: ErrorBody = {
            "code": self.code.value,
            "message": self.message,
            "hint": self.hint,
            "retryable": self.retryable,
        }
        if self.candidates is not None:
            out["candidates"] = self.candidates
        return out
