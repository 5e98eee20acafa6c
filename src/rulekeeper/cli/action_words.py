"""What a player typed, as one of the legal actions: a line number, a listed text, or the game's own words.

Every game lists its legal actions with a text (``LegalAction.text``); a player who copies that text back must
get that action, whatever the game's own word parser (``Game.parse_words``) makes of it. So the typed words
are first compared with the listed texts of the current legal actions, for every game alike (this module
knows no rule system):

1. the whole line, ignoring case and spacing (``Oathsworn: every unit holds``);
2. failing that, its words alone, ignoring punctuation, so that a shell's quoting does not matter
   (``oathsworn "every unit holds"``, ``stance A:Billmen defensive`` for ``stance A:Billmen [defensive]``).

A match counts only when exactly one listed action has it; anything else goes to the game's parser, which
reads the game's looser spellings (``move Billmen c3``) and names what it cannot read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, LegalAction
from rulekeeper.core.wording import counted

_WORD = re.compile(r"\w+")


def _line(text: str) -> str:
    return " ".join(text.casefold().split())


def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.casefold()))


def listed_match(legal: Sequence[LegalAction], words: Sequence[str]) -> LegalAction | None:
    """The one legal action whose listed text the words are, or None."""
    typed = " ".join(words)
    for key in (_line, _words):
        wanted = key(typed)
        if not wanted:
            return None
        found = [lg for lg in legal if key(lg.text) == wanted]
        if len(found) == 1:
            return found[0]
    return None


def number_of(words: Sequence[str]) -> int | None:
    """The line number a player typed (``3``), or None when the words are not a lone number."""
    if len(words) == 1 and words[0].strip().isdigit() and len(words[0].strip()) <= 6:
        return int(words[0])
    return None


def by_number(legal: Sequence[LegalAction], n: int) -> LegalAction:
    if not 1 <= n <= len(legal):
        raise IllegalActionError(f"no action {n}: the list has {counted(len(legal), 'line')} (1 to {len(legal)})"
                                 if legal else f"no action {n}: nobody can act now")
    return legal[n - 1]


def parse(game: Game, state: object, legal: Sequence[LegalAction], words: Sequence[str],
          option: str | None = None) -> Mapping[str, object]:
    """The action the words name: a listed text (when no ``--option`` is given), else the game's parser (its
    logged JSON, which the service parses and checks again when it is played)."""
    if not words:
        raise IllegalActionError("no action given: type the action's words or its number from the list")
    if option is None:
        found = listed_match(legal, words)
        if found is not None:
            return found.action
    return game.parse_words(state, list(words), option)
