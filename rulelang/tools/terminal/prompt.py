"""Reading a line at the prompt: prompt_toolkit with Tab completion of the moves and the
commands when stdin and stdout are terminals, else input(). Ctrl-C and end of input both
come back as None (the caller stops the game and writes its record)."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

COMMANDS = ("help", "rules", "moves", "more", "undo", "hint", "score", "svg", "quit")


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


class Reader:
    """`read(prompt, words)`: one line, completing from `words()` (the legal moves now)."""

    def __init__(self) -> None:
        self._session: Any = None
        if interactive():
            try:
                from prompt_toolkit import PromptSession
            except ImportError:  # the plain prompt still works
                return
            self._session = PromptSession()

    def read(self, prompt: str, words: Callable[[], Iterable[str]] = lambda: ()) -> str | None:
        try:
            if self._session is not None:
                return str(self._session.prompt(prompt, completer=_completer(words),
                                                complete_while_typing=False))
            return input(prompt)
        except (EOFError, KeyboardInterrupt):
            return None


def _completer(words: Callable[[], Iterable[str]]) -> Any:
    from prompt_toolkit.completion import Completer, Completion

    class Moves(Completer):
        """Moves and commands that start with what is typed (moves have spaces in them:
        "move a7 a6" completes from "move a7")."""

        def get_completions(self, document: Any, event: Any) -> Any:
            typed = document.text_before_cursor.lstrip()
            for word in [*words(), *COMMANDS]:
                if word.startswith(typed) and word != typed:
                    yield Completion(word, start_position=-len(typed))
    return Moves()
