"""A small SVG writer: elements with attributes, children and text, written as XML.

The pictures need only a handful of elements (g, rect, circle, polygon, line, text, title)
with attributes in a fixed order, so a writer of our own keeps the output deterministic
(stable for tests and for the images in docs/) and the package free of another dependency;
escaping is the standard library's.
"""
from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

Attr = str | int | float | None
_PLAIN = re.compile(r"[^&<>\"'\n\r\t]*")  # written as it is (what the escaping would give)
_NAMES: dict[str, str] = {}  # attribute names as written: class_ -> class, data_site -> data-site


class Node:
    """One element: `Node("rect", x=0, width=10, class_="site")` (a trailing underscore is
    dropped from an attribute name, and `data_site` is written `data-site`)."""

    __slots__ = ("tag", "attrs", "children", "text")

    def __init__(self, tag: str, text: str | None = None, **attrs: Attr) -> None:
        self.tag, self.text = tag, text
        self.attrs: dict[str, str] = {}
        self.children: list[Node] = []
        self.set(**attrs)

    def set(self, **attrs: Attr) -> Node:
        for key, value in attrs.items():
            if value is not None:
                name = _NAMES.get(key)
                if name is None:
                    name = _NAMES[key] = key.rstrip("_").replace("_", "-")
                self.attrs[name] = value if type(value) is str else _value(value)
        return self

    def add(self, child: Node) -> Node:
        """Append `child` and return it (for building in place)."""
        self.children.append(child)
        return child

    def write(self, out: list[str]) -> None:
        attrs = "".join(f' {k}="{v}"' if _PLAIN.fullmatch(v) else f" {k}={quoteattr(v)}"
                        for k, v in self.attrs.items())
        if not self.children and self.text is None:
            out.append(f"<{self.tag}{attrs}/>")
            return
        out.append(f"<{self.tag}{attrs}>")
        if self.text is not None:
            out.append(self.text if _PLAIN.fullmatch(self.text) else escape(self.text))
        for child in self.children:
            child.write(out)
        out.append(f"</{self.tag}>")

    def to_string(self) -> str:
        out: list[str] = []
        self.write(out)
        return "".join(out)


def _value(value: str | int | float) -> str:
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return str(value)


def document(width: float, height: float, children: list[Node], css: str = "",
             **attrs: Attr) -> Node:
    """An <svg> root of the given size, with an optional style sheet."""
    root = Node("svg", xmlns="http://www.w3.org/2000/svg", width=width, height=height,
                viewBox=f"0 0 {_value(width)} {_value(height)}")
    root.set(**attrs)
    if css:
        root.add(Node("style", css))
    root.children += children
    return root


def slug(text: str) -> str:
    """A CSS class name made from any text: letters, digits, '-' and '_' (others as '-')."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", str(text)).strip("-")
    return cleaned or "x"
