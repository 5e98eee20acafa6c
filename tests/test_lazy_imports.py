"""``rulekeeper odds`` and ``resolve`` never import the web or SQL stack (start-up time): the
game protocol issue measured 2 s for ``odds``, most of it SQLAlchemy it did not need."""

import json
import subprocess
import sys

HEAVY = ("sqlalchemy", "fastapi", "starlette", "jinja2", "uvicorn", "alembic")

SCRIPT = """
import sys
from typer.testing import CliRunner
from rulekeeper.cli.app import app
for args in ({commands}):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, (args, result.output)
import json
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy})))
"""


def test_odds_and_resolve_load_no_web_or_sql_module() -> None:
    commands = [
        ["odds", "exillis", "melee", "Billmen", "Franc Chevalers"],
        ["resolve", "exillis", "melee", "Billmen", "Franc Chevalers", "--seed", "7"],
        ["resolve", "wartable", "--attacker", "Oathsworn Vanguard", "--defender", "Bloodless Horde"],
        ["units", "exillis"],
    ]
    code = SCRIPT.format(commands=repr(commands)[1:-1] + ",", heavy=repr(set(HEAVY)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
