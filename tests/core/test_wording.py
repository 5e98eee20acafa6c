"""Counts in words (``core.wording``): "1 action", "3 actions", never "action(s)" (the CLI, pages and logs)."""

import doctest
import importlib
import io
import re
import tokenize
from fractions import Fraction
from pathlib import Path

from rulekeeper.core import wording
from rulekeeper.core.wording import counted, noun_for


def test_docstring_examples_run() -> None:
    result = doctest.testmod(wording)
    assert result.attempted == 6 and result.failed == 0  # possessive's example too
    from rulekeeper.core import game

    result = doctest.testmod(game)  # OddsPreview.line: every action list's odds
    assert result.attempted == 1 and result.failed == 0


def test_every_action_list_writes_the_odds_one_way() -> None:
    """Played as a user: the Battle System's move list read "movement points left after this move 3" in the CLI
    and on the phone's picker; five renderers joined a headline each with its own copy of the same line."""
    from rulekeeper.core.game import OddsPreview, headline_line

    preview = OddsPreview((("hit", 0.25), ("movement points left after this move", "3")))
    assert preview.line() == headline_line(preview.headline_dict().items()) == \
        "hit 25.0 %, movement points left after this move: 3"
    root = Path(wording.__file__).resolve().parents[1]
    copies = [str(p.relative_to(root)) for p in root.rglob("*.py")
              if "for k, v in" in p.read_text() and ".headline" in p.read_text()
              and "isinstance(v, float) else" in p.read_text() and p.name != "game.py"]
    assert copies == [], copies


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [counted(n, "action") for n in (0, 1, 2, 11)] == ["0 actions", "1 action", "2 actions", "11 actions"]
    assert counted(1, "match", "matches") == "1 match" and counted(5, "match", "matches") == "5 matches"
    assert [noun_for(n, "hit") for n in (Fraction(1), 1.0, Fraction(1, 2), 1.5, 0)] == ["hit", "hit", "hits", "hits",
                                                                                          "hits"]


#: A number, or the end of a formatted count ("{n}", "{{ n }}"), then one to three words ending in "(s)" or "(es)":
#: "3 zone(s)", "{n} line(s)", "{more} more problem(s)", "{d} hex(es)". Help texts such as "Side(s) the policy
#: plays" have no count.
COUNT_WITH_S = re.compile(r"(\d|\})(\s+[A-Za-z-]+){1,3}\(e?s\)")


def printed(text: str, suffix: str) -> list[str]:
    """What a file can print: a template whole, the string literals (f-strings too) of a module, not its code."""
    if suffix != ".py":
        return [text]
    return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.STRING]


def test_the_pattern_finds_counts_and_spares_the_help_texts() -> None:
    for found in ("{n} line(s)", "{len(report.problems)} problem(s):", "{more} more problem(s)", "3 zone(s)",
                  "{reach:g} zone(s)", "{len(cuts)} cut-down attack(s)", "{{ n }} word(s)", "({sung} Verse(s))",
                  "{distance} hex(es) away"):
        assert COUNT_WITH_S.search(found), found
    for spared in ('help="Side(s) the policy plays (e.g. A or B)"', "Legal actions of the side(s) to act", "http(s)://",
                   'help="Defender(s), same form."', "f\"side(s) {', '.join(missing)}\"", "_Round(s).run(start)"):
        assert not COUNT_WITH_S.search(spared), spared
    code = "if m0 * m1 <= 0 and abs(s) > 1:\n    say(f'{n} line(s)')\n"
    assert [m.group(0) for s in printed(code, ".py") for m in COUNT_WITH_S.finditer(s)] == ["} line(s)"]


def test_no_reader_prints_a_count_with_s_in_brackets() -> None:
    source = Path(wording.__file__).resolve().parents[1]
    offenders = []
    for p in sorted(source.rglob("*")):
        if p.suffix not in {".py", ".html"} or p.name == "wording.py":
            continue
        text = p.read_text(encoding="utf-8")
        offenders += [f"{p.relative_to(source)}: {m.group(0)!r}"
                      for s in printed(text, p.suffix) for m in COUNT_WITH_S.finditer(s)]
        if "action(s)" in text:
            offenders.append(f"{p.relative_to(source)}: 'action(s)'")
    assert offenders == []


#: Plural nouns a count stands before in the keeper's texts ("{cost} points", "{{ n }} soldiers"). Units of
#: measure (cm, mm, %, s, ms, KiB, MB) and abbreviations (HP, EP, AcP, BP, VP, pts, dmg) are no nouns here: "1 cm".
PLURAL_NOUNS = (
    "actions", "armies", "attacks", "battles", "borders", "branches", "bytes", "casualties", "cells", "characters",
    "charges", "columns", "counters", "dice", "digits", "draws", "dwarves", "entries", "factions", "fields", "fighters",
    "figures", "frays", "games", "generals", "heroes", "hexes", "hits", "items", "iterations", "kills", "knights",
    "leaves", "letters", "levels", "lines", "marbles", "matchups", "men", "miniatures", "models", "moves", "names",
    "options", "orders", "outcomes", "particles", "parts", "players", "points", "problems", "regions", "resolutions",
    "results", "rounds", "rows", "runs", "seconds", "sequences", "shots", "simulations", "soldiers", "spells", "steps",
    "strikes", "successes", "survivors", "targets", "terrains", "tests", "tokens", "trials", "turns", "units", "values",
    "words", "wounds", "zones",
)
#: A substitution ("{expr}", "{expr!r:>4}", a template's "{{ expr }}", not its "{% tag %}"), then at once one of those
#: nouns.
COUNT_THEN_PLURAL = re.compile(r"(\{\{[^{}]*\}\}|\{(?![{%#])(?:[^{}]|\{[^{}]*\})*\})\s+(?:more\s+|other\s+)?("
                               + "|".join(PLURAL_NOUNS) + r")\b")  # "… and {n} more draws" printed "1 more draws"
#: What a substitution that is the subject of a verb ends in ("{m.name} moves", "{who} charges", "{f.key} counters"):
#: a name, never a count.
NAMING = {"name", "key", "unit", "who", "side", "faction", "wizard", "attacker", "defender", "title", "label", "spec",
          "path"}

#: Counts followed by a plural noun that can never be 1: (file under src/rulekeeper, the text) -> why.
NEVER_ONE = {
    ("cli/lab_cmds.py", "{len(parts)} values"): "written only when len(parts) > 16",
    ("rulesets/battlesystem/scenario.py", "{len(generals)} generals"): "a problem only when len(generals) > 1",
    ("rulesets/battlesystem/support.py", "{n.tend_sides} soldiers"): "a dice formula (2d6 soldiers back), not a count",
    ("rulesets/confrontation/cards.py", "{len(band.fighters)} fighters"): "refused only when len(band.fighters) > 1",
    ("rulesets/confrontation/checks.py", "{len(group[0]) + len(group[1])} fighters"):
        "too_large(group): more than MAX_FIGHTERS (8)",
    ("rulesets/confrontation/checks.py", "{len(keys)} fighters"): "too_large(group): more than MAX_FIGHTERS (8)",
    ("rulesets/confrontation/melee.py", "{(i, j)} names"): "a verb: the pair names no fighter",
    ("rulesets/dragonnoir/legal.py", "{via[0]} steps"): "a verb: a man on the hex via[0] steps onto the limb",
    ("rulesets/dragonnoir/special.py", "{n} hexes"): "refused only when n > FLIGHT_HEXES (5)",
    ("rulesets/exillis/lab_kernel/fighters.py", "{len(c.hp)} miniatures"): "refused only above MAX_MINIATURES (2047)",
    ("rulesets/exillis/scenario_checks.py", "{sides.count(side)} armies"): "a problem only when the count != 1",
    ("service/battles.py", "{at.position:,} actions"): "refused only at BATTLE_LIMITS.actions (10,000) or more",
    ("web/muster_form.py", "{limit:,} characters"): "one of MAX_MUSTER, MAX_DESCRIPTION, MAX_FIELD (80 and more)",
    ("web/musters.py", "{len(army.units)} entries"): "refused only above MAX_ROWS",
}
#: Counts that can be 1, left for later: fix them with counted() and take the entry out (none now).
LEFT_TO_THEIR_OWNERS: dict[tuple[str, str], str] = {}


def _split(substitution: str) -> tuple[str, str, str]:
    """``"{x.n!r:>4}"`` -> ``("x.n", "r", ">4")``: the expression, its conversion and its format spec."""
    inner = substitution[2:-2] if substitution.startswith("{{") else substitution[1:-1]
    depth, cut = 0, len(inner)
    for i, ch in enumerate(inner):
        depth += ch in "([{" and 1 or ch in ")]}" and -1 or 0
        if depth == 0 and ch in "!:" and inner[i:i + 2] != "!=":
            cut = i
            break
    expr, rest = inner[:cut].strip(), inner[cut:]
    conversion = rest[1] if rest.startswith("!") else ""
    spec = rest.partition(":")[2] if ":" in rest else ""
    return expr, conversion, spec


def _constant(module: str, expr: str) -> object:
    """The value of a module constant (``MAX_FIELDS``, ``LIMITS.text``) as the module sees it (None: not one)."""
    value: object = importlib.import_module(module)
    for part in expr.split("."):
        value = getattr(value, part, None)
    return value


def count_then_plural(text: str, suffix: str, module: str | None = None) -> list[str]:
    """The substitutions of ``text`` followed by a plural noun that may print "1 <nouns>". Not counted: a subject
    ("{m.name} moves", "{spec!r} names"), a text already worded (``counted(…)``, a ``join``), a fixed-decimals
    amount ("{x:.2f} points" prints "1.00"), a module constant the module holds at another value than 1."""
    found = []
    for s in printed(text, suffix) if suffix == ".py" else [text]:
        for m in COUNT_THEN_PLURAL.finditer(s):
            expr, conversion, spec = _split(m.group(1))
            if conversion == "r" or "counted(" in expr or ".join(" in expr or re.search(r"\.\d*[1-9]\d*f$", spec):
                continue
            if re.fullmatch(r"[A-Za-z_][\w.]*(\(\))?", expr) and re.split(r"\W+", expr.rstrip("()"))[-1] in NAMING:
                continue
            if module is not None and re.fullmatch(r"[A-Z][A-Z0-9_]*(\.[a-z_]\w*)?", expr):
                value = _constant(module, expr)
                if isinstance(value, int) and value != 1:
                    continue
            found.append(m.group(0))
    return found


def test_the_scan_finds_counts_before_a_plural_noun_and_spares_names_and_measures() -> None:
    code = ("say(f'{p.name} move ({cost} points, {left} left)'); say(f'{n} hexes' f' away')\n"
            "say(f'{u.soldiers} of {u.type.soldiers} soldiers'); say(f'costs {cost} of {left(p)} points left')\n"
            "say(f'{m.name} moves to {to}'); say(f'{who} charges {t}'); say(f'{spec!r} names no unit')\n"
            "say(f'{counted(n, \"point\")} left'); say(f'{over:.2f} points'); say(f'{d:g} cm, {pct:.0f} %, {t} s')\n"
            "say(f'{strike.title()} attacks'); say(f'{limit:,} characters'); say('{task.completed} actions')\n")
    assert count_then_plural(code, ".py") == ["{cost} points", "{n} hexes", "{u.type.soldiers} soldiers",
                                              "{left(p)} points", "{limit:,} characters", "{task.completed} actions"]
    page = ('<p>{{ u.soldiers }} soldiers, {{ counted(n, "hex", "hexes") }} · {{ l.cm }} cm {{ focus.reach|length }}\n'
            ' hexes {% if dice.ready %} dice{% endif %}')
    assert count_then_plural(page, ".html") == ["{{ u.soldiers }} soldiers", "{{ focus.reach|length }}\n hexes"]
    assert count_then_plural("f'{MAX_FIELDS} fields, {LIMITS.text:,} characters'", ".py", "rulekeeper.web.action_form") \
        == ["{LIMITS.text:,} characters"]  # action_form holds MAX_FIELDS (8), not LIMITS
    assert count_then_plural("f'{LIMITS.text:,} characters'", ".py", "rulekeeper.core.yamlfiles") == []
    assert count_then_plural("f'{MAX_SPECS} characters'", ".py", "rulekeeper.rulesets.dragonnoir.specs") == []


def test_no_count_of_one_reads_with_a_plural_noun() -> None:
    """"Clan Seers move C4 → D5 (1 points, 0 left)": every count that can be 1 goes through ``counted``."""
    source = Path(wording.__file__).resolve().parents[1]
    hits = set()
    for p in sorted(source.rglob("*")):
        if p.suffix not in {".py", ".html"}:
            continue
        where = p.relative_to(source).as_posix()
        module = "rulekeeper." + where.removesuffix(".py").replace("/", ".") if p.suffix == ".py" else None
        hits |= {(where, text) for text in count_then_plural(p.read_text(encoding="utf-8"), p.suffix, module)}
    known = NEVER_ONE.keys() | LEFT_TO_THEIR_OWNERS.keys()
    assert sorted(hits - known) == []  # write these with counted(n, "noun"), or noun_for(n, "noun") after "{n:,}"
    assert sorted(known - hits) == []  # entries that no longer match anything: take them out
