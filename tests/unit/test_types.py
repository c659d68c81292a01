"""The types of the checker (rulelang/language/types.py): joins, what fits where, signatures
and the designer's words."""
from __future__ import annotations

import pytest

from rulelang.language import types as ty
from rulelang.library import BUILTINS


def test_none_and_unknown_fit_anything_and_none_gives_way_in_a_join() -> None:
    for t in (ty.NONE, ty.UNKNOWN):
        assert ty.fits(t, frozenset({"site"}))
    assert ty.join(ty.NONE, ty.SITE) == ty.SITE
    assert ty.join(ty.SITE, ty.PLAYER) == ty.UNKNOWN


def test_texts_kinds_and_option_values_join_as_texts() -> None:
    assert ty.join(ty.kind("stone"), ty.TEXT) == ty.TEXT
    assert ty.fits(ty.option("variant"), frozenset({"text"}))
    assert not ty.fits(ty.kind("stone"), frozenset({"piece", "source"}))


def test_sequences_join_item_by_item() -> None:
    a = ty.tuple_of((ty.NUMBER, ty.TEXT))
    assert ty.join(a, ty.tuple_of((ty.NUMBER, ty.NONE))) == a
    assert ty.join(ty.list_of(ty.SITE), ty.REGION) == ty.list_of(ty.SITE)
    assert ty.element(ty.LINES) == ty.list_of(ty.SITE)
    assert ty.element(ty.zone("deck")) == ty.piece()


@pytest.mark.parametrize("op, a, b, out", [
    ("+", ty.NUMBER, ty.NUMBER, ty.NUMBER), ("+", ty.TEXT, ty.kind("x"), ty.TEXT),
    ("+", ty.NUMBER, ty.TEXT, None), ("-", ty.SITE, ty.NUMBER, None),
    ("-", ty.UNKNOWN, ty.NUMBER, ty.NUMBER), ("*", ty.NUMBER, ty.TEXT, ty.TEXT),
    ("+", ty.tuple_of((ty.TEXT,)), ty.list_of(ty.SITE), ty.list_of(ty.UNKNOWN)),
])
def test_arithmetic(op: str, a: ty.Type, b: ty.Type, out: ty.Type | None) -> None:
    assert ty.arith(op, a, b) == out


def test_every_builtin_declares_a_type_that_reads() -> None:
    untyped = {"max", "min"}  # one collection or several values: typed in typecheck.py
    for b in BUILTINS.values():
        sig = ty.parse_signature(b.sig)
        ty.parse_type(sig.result)
        assert (b.sig == "any... -> any") == (b.name in untyped), b.name
        if b.lo >= 0 and b.name not in untyped:
            assert len(sig.params) + (sig.rest is not None) >= b.lo, b.name


def test_the_words() -> None:
    assert str(ty.list_of(ty.PLAYER)) == "a list of players"
    assert str(ty.piece("stone")) == "a 'stone' piece"
    assert str(ty.map_of(ty.TEXT, ty.NUMBER)) == "a map from texts to numbers"
    assert ty.expected(frozenset({"site", "zone"})) == "a site or a zone"
    assert ty.expected(ty.COLLECTIONS) == "a collection (a list, a region, a zone …)"
