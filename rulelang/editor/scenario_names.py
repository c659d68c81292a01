"""The rulebook's names in its scenario files (*.test): a zone, counter or var a step states or
expects (`counter placed of White: 1`), a player, a piece kind, an attribute (`with board =
2`), an option (`options size: 6`). Each NAME token of the scenario grammar
(language/scenario.lark) is what its place in the grammar says, when the rulebook has a name
of that kind so spelled; a text (a move, a site, a title) is never a name."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lark import Token, Tree

from rulelang.errors import RulelangError
from rulelang.language.parser import parse_scenarios
from rulelang.source import Source, Span

_OWNED = ("zone", "zones", "counter", "var")
_PLAYER_OR_KIND = ("player", "kind")
# a grammar rule: the kinds of names its NAME tokens may be, by their order (the last kinds
# go on for the NAMEs after); () is a NAME that is no rulebook name
_RULES: dict[str, tuple[tuple[str, ...], ...]] = {
    "owned": (_OWNED, ("player",)),
    "e_counter": (("counter",), ("player",)),
    "e_var": (("var",), ("player",)),
    "g_put": (_PLAYER_OR_KIND,),
    "at_piece": (_PLAYER_OR_KIND,),
    "e_at_has": (_PLAYER_OR_KIND,),
    "e_pieces": (_PLAYER_OR_KIND,),
    "g_move_with": (("kind",),),
    "e_zone_count": (("kind",),),
    "with_attr": (("attribute",), ()),
    "attr_item": (("attribute",), ()),
    "option_item": (("option",), ()),
    "g_turn": (("player",),),
    "e_winner": (("player",),),
    "e_winners": (("player",),),
    "e_to_move": (("player",),),
    "e_sees": (("player",),),
    "e_not_sees": (("player",),),
    "score_item": (("player",),),
    "e_terms": (("player",),),
    "e_terms_total": (("player",),),
}
_HEADER = re.compile(r'^(?:rulebook\s+"([^"]+)"|test\s+"[^"]*"\s+of\s+"([^"]+)")', re.M)


def rulebook_of(path: Path, text: str) -> Path | None:
    """The rulebook a scenario file tests (its header), or None."""
    m = _HEADER.search(text)
    return (path.parent / (m.group(1) or m.group(2))).resolve() if m is not None else None


Name = tuple[tuple[str, ...], str, Span]
_KEPT: dict[str, tuple[str, list[Name]]] = {}  # a file's path: its text and its names
_MAX_KEPT = 300


def names(source: Source) -> list[Name]:
    """Each NAME of a scenario file that may be a rulebook's name: the kinds of name it may
    be, the name, where it is. Nothing for a file that does not parse. (Kept for the file's
    text: a large scenario file takes 0.1 s to parse.)"""
    kept = _KEPT.get(source.path)
    if kept is not None and kept[0] == source.text:
        return kept[1]
    if len(_KEPT) >= _MAX_KEPT:
        _KEPT.clear()
    found = list(_names(source))
    _KEPT[source.path] = (source.text, found)
    return found


def _names(source: Source) -> Iterator[Name]:
    try:
        tree = parse_scenarios(source)
    except RulelangError:
        return
    todo = [tree]
    while todo:
        sub = todo.pop()
        todo.extend(reversed([c for c in sub.children if isinstance(c, Tree)]))
        kinds = _RULES.get(str(sub.data))
        if kinds is None:
            continue
        tokens = [c for c in sub.children if isinstance(c, Token) and c.type == "NAME"]
        for i, tok in enumerate(tokens):
            which = kinds[min(i, len(kinds) - 1)]
            if which and tok.line is not None and tok.column is not None:
                yield which, str(tok), Span(source.path, tok.line, tok.column, tok.line,
                                            tok.column + len(tok))
