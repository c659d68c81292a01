"""What a client may send, checked before anything reads it, and the errors it gets back.

A client is untrusted: a frame is at most MAX_FRAME characters of JSON, an object with a
known `type` and fields of the right kinds; each connection may send RATE frames a second
(BURST at once). Anything else is a `ClientError`, answered with a clear message; it never
reaches a table and never closes the server.

Client -> server: {"type": "act", "action": LABEL, "turn": TURN} (TURN: the `turn` of the
view that offered the move, so that a move made for an older position is refused),
{"type": "undo"} (ask to take back the last move of a person), {"type": "undo_answer",
"agree": true|false}, {"type": "ping"}.
Server -> client: {"type": "view", ...} (views.py), {"type": "error", "code": "R430",
"message": ..., "help": ...}, {"type": "pong"}.
"""
from __future__ import annotations

import json
import time
from typing import Any

MAX_FRAME = 4096  # characters of one client frame
RATE, BURST = 20.0, 40.0  # frames a second, and at once


class ClientError(Exception):
    """A mistake of a client (a form, a frame, a link): shown to them as it is."""

    code = "R430"

    def __init__(self, message: str, help: str | None = None) -> None:
        super().__init__(message)
        self.message, self.help = message, help

    def frame(self) -> dict[str, Any]:
        out = {"type": "error", "code": self.code, "message": self.message}
        if self.help:
            out["help"] = self.help
        return out


_FIELDS: dict[str, dict[str, type]] = {"act": {"action": str, "turn": str}, "undo": {},
                                       "undo_answer": {"agree": bool}, "ping": {}}


def parse(text: Any) -> dict[str, Any]:
    """A client frame as a checked message; ClientError for anything else."""
    if not isinstance(text, str):
        raise ClientError("messages are JSON text, not binary")
    if len(text) > MAX_FRAME:
        raise ClientError(f"message too long ({len(text)} characters; at most {MAX_FRAME})")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ClientError("message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ClientError("a message is a JSON object with a 'type'")
    kind = data.get("type")
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ClientError(f"unknown message type {_short(kind)}",
                          "types: " + ", ".join(_FIELDS))
    for name, want in fields.items():
        if not isinstance(data.get(name), want):
            raise ClientError(f"message '{kind}' needs '{name}' ({want.__name__})")
    return data


def _short(value: Any) -> str:
    text = json.dumps(value) if value is not None else "(none)"
    return text if len(text) <= 40 else text[:37] + "..."


class Bucket:
    """At most RATE frames a second on average, BURST at once (a token bucket)."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.last = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def too_fast(rate: float) -> ClientError:
    return ClientError(f"too many messages: at most {rate:g} a second; this one was ignored")
