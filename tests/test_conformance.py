"""The one conformance test every registered ruleset must pass (cf. OpenSpiel's playthroughs).

It drives each ruleset only through the core protocol: names and aliases resolve,
options are well-formed, the roster is JSON-able, and a sample resolution is
reproducible from its seed, its chance records sum to 1 and replay bit for bit.
"""

import json
import math

import pytest

from rulekeeper.core.chance import Fate, verify_replay
from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.ruleset import Ruleset, find_ruleset, registered

RULESETS = sorted(registered())


def test_at_least_the_two_shipped_rulesets_are_registered() -> None:
    assert {"exillis", "wartable"} <= set(RULESETS)


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_conforms(name: str) -> None:
    cls = registered()[name]
    rs = cls()
    assert isinstance(rs, Ruleset)
    assert cls.name == name and cls.title
    for alias in (cls.name, *cls.aliases, cls.name.upper()):
        assert find_ruleset(alias) is cls
    opts = rs.options()
    assert len({o.name for o in opts}) == len(opts)
    for o in opts:
        assert o.default in o.choices and o.help
    roster = rs.roster()
    assert roster and all("name" in u for u in roster)
    json.dumps(roster)
    first = rs.sample_resolution(fa := Fate.from_seed(2026))
    again = rs.sample_resolution(Fate.from_seed(2026))
    assert first.to_dict() == again.to_dict()
    json.dumps(first.to_dict())
    assert fa.start is not None
    verify_replay(fa.start, fa.records)
    for rec in fa.records:
        if rec.request.kind == "discrete":
            assert math.isclose(sum(rec.request.probabilities), 1.0, rel_tol=1e-12)
    if cls.deterministic:
        assert not fa.records
    else:
        assert fa.records
        other = rs.sample_resolution(Fate.from_seed(2027))
        assert other.to_dict() != first.to_dict()


def test_unknown_ruleset_suggests_closest() -> None:
    with pytest.raises(UnknownNameError) as err:
        find_ruleset("exilis")
    assert "exillis" in err.value.suggestions
