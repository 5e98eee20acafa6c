"""Right-to-left names isolated wherever a page shows them: text, tooltips, SVG, sentences (issue 23, fault 10).

Why after rendering, in one place: a battle title, an army, side, unit or player name reaches a page
through the keeper's templates, the games' templates (as text, in ``title=`` and ``aria-label=``
tooltips, in SVG ``<title>`` and ``<text>``) and through sentences the games build ("קשתים charge
Goblins"), which the games also print in the terminal and keep in exports, where markup has no
place. Asking every template and every sentence builder to remember the isolation is how ten pages
were missed; this pass sees the finished page and the names the battle was set up with, and
isolates each occurrence:

- in page text, in ``<bdi>`` (markup is allowed there);
- where markup is not allowed (an attribute a person reads, SVG ``<title>``/``<text>``, an
  ``<option>``, the page's ``<title>``), between U+2068 FIRST STRONG ISOLATE and U+2069 POP
  DIRECTIONAL ISOLATE — characters the name checks refuse in names (``core/names.py``), so an
  isolate here is always the keeper's.

Decision: only names holding a right-to-left character (bidirectional class R, AL or AN) are
isolated here. A name in left-to-right letters only displays the same isolated or not on these
left-to-right pages, so pages without a right-to-left name are untouched (and cost nothing: one
search for a right-to-left character). Identifiers are left alone: ``href``, ``value``, ``data-unit``
and the like are read by scripts and sent back, and an isolate there would change what they say;
``<script>``, ``<style>`` and ``<textarea>`` (an army list being edited) are kept byte for byte.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, runtime_checkable

from markupsafe import escape

from rulekeeper.core.errors import RulekeeperError

FSI, PDI = "\u2068", "\u2069"

#: The blocks of the right-to-left scripts: a quick test whether a page may hold such a name at all.
RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")

#: Attributes a person reads (a tooltip, a screen reader's label, text a script shows as it is).
READ_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "data-title", "data-moved", "data-label",
                   "data-role")
_ATTRIBUTE = re.compile(r'(\s(?:' + "|".join(re.escape(a) for a in READ_ATTRIBUTES) + r')=")([^"]*)(")')
_TOKEN = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][\w:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
_RAW = frozenset({"script", "style", "textarea"})  # kept byte for byte
_PLAIN = frozenset({"title", "text", "tspan", "textpath", "option"})  # text, but no markup inside
_LONGEST = 200  # longer strings of a document are descriptions, not names


def needs_isolation(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter or number, which would reorder what is next to it."""
    return bool(RTL.search(text)) and any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in text)


def names_in(*documents: object) -> frozenset[str]:
    """The right-to-left names set in ``documents`` (a battle's initial document, its title, its meta):
    every string value or key holding a right-to-left character, up to :data:`_LONGEST` characters."""
    found: set[str] = set()
    stack: list[tuple[object, int]] = [(d, 0) for d in documents]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            if len(node) <= _LONGEST and needs_isolation(node):
                found.add(node.strip())
        elif depth < 32 and isinstance(node, dict):
            stack.extend((key, depth + 1) for key in node if isinstance(key, str))
            stack.extend((value, depth + 1) for value in node.values())
        elif depth < 32 and isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
    found.discard("")
    return frozenset(found)


class Isolator:
    """Isolates the occurrences of a set of names in a finished HTML page."""

    def __init__(self, names: Iterable[str]) -> None:
        escaped = sorted({str(escape(n)) for n in names if n}, key=len, reverse=True)
        self.pattern = re.compile("|".join(re.escape(n) for n in escaped)) if escaped else None

    def page(self, html: str) -> str:
        if self.pattern is None or not RTL.search(html):
            return html
        out: list[str] = []
        raw: str | None = None  # inside <script>/<style>/<textarea>: until its end tag
        bdi = plain = pos = 0
        for m in _TOKEN.finditer(html):
            text = html[pos:m.start()]
            out.append(text if raw or bdi else self.plain(text) if plain else self.text(text))
            pos = m.end()
            closing, tag = m.group(1), (m.group(2) or "").lower()
            if raw:
                raw = None if closing and tag == raw else raw
                out.append(m.group(0))
                continue
            out.append(m.group(0) if closing or not tag else self.tag(m.group(0)))
            step = -1 if closing else 0 if m.group(0).endswith("/>") else 1
            if tag in _RAW and not closing:
                raw = tag
            elif tag == "bdi":
                bdi = max(0, bdi + step)
            elif tag in _PLAIN:
                plain = max(0, plain + step)
        rest = html[pos:]
        out.append(rest if raw or bdi else self.plain(rest) if plain else self.text(rest))
        return "".join(out)

    def text(self, text: str) -> str:
        """Page text: each name in ``<bdi>``."""
        assert self.pattern is not None
        return self.pattern.sub(lambda m: f"<bdi>{m.group(0)}</bdi>", text) if RTL.search(text) else text

    def plain(self, text: str) -> str:
        """Text that cannot hold markup: each name between FSI and PDI (once)."""
        assert self.pattern is not None
        if not RTL.search(text):
            return text
        return self.pattern.sub(lambda m: m.group(0) if _wrapped(m) else f"{FSI}{m.group(0)}{PDI}", text)

    def tag(self, tag: str) -> str:
        if not RTL.search(tag):
            return tag
        return _ATTRIBUTE.sub(lambda a: a.group(1) + self.plain(a.group(2)) + a.group(3), tag)


def _wrapped(m: re.Match[str]) -> bool:
    s, start, end = m.string, m.start(), m.end()
    return start > 0 and s[start - 1] == FSI and end < len(s) and s[end] == PDI


def isolated(html: str, names: Iterable[str]) -> str:
    """``html`` with every occurrence of each right-to-left name in ``names`` isolated."""
    return Isolator(n for n in names if needs_isolation(n)).page(html)


@runtime_checkable
class TitledRecord(Protocol):
    """What a battle record shows a page of itself (``persistence``'s record, read without importing it)."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def meta(self) -> object: ...


class BattleNames:
    """The right-to-left names of the battles a page shows: from each one's initial document (read once: it
    never changes), its title and its meta (players' names)."""

    def __init__(self, initial: Callable[[str], Mapping[str, object]], keep: int = 512) -> None:
        self.initial, self.keep = initial, keep
        self.documents: dict[str, frozenset[str]] = {}

    def of(self, records: Iterable[TitledRecord]) -> frozenset[str]:
        found: set[str] = set()
        for rec in records:
            if rec.id not in self.documents:
                if len(self.documents) >= self.keep:
                    self.documents.clear()
                try:
                    self.documents[rec.id] = names_in(self.initial(rec.id))
                except RulekeeperError:  # deleted meanwhile: its title and meta still count
                    self.documents[rec.id] = frozenset()
            found |= self.documents[rec.id] | names_in(rec.title, rec.meta)
        return frozenset(found)

    def page(self, html: str, ctx: Mapping[str, object]) -> str:
        """``html`` rendered with ``ctx``, its battles' right-to-left names isolated."""
        if not RTL.search(html):
            return html
        return isolated(html, self.of(records_in(ctx)))


def records_in(ctx: Mapping[str, object]) -> list[TitledRecord]:
    """The battle records a page's context holds: its view's, its own, or each listed battle's."""
    found = [getattr(ctx.get("v"), "rec", None), ctx.get("rec")]
    listed = ctx.get("battles")
    if isinstance(listed, list | tuple):
        found += [row.get("rec") for row in listed if isinstance(row, dict)]
    return [rec for rec in found if isinstance(rec, TitledRecord)]
