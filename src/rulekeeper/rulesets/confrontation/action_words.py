"""The words a skirmish's log gives each action (``Game.action_text``)."""

from __future__ import annotations

from rulekeeper.core.game import JsonDict

from .spells import mystic_rules


def action_text(action: JsonDict) -> str:
    """The log's words for an action (no state: the stored log is read without replaying it)."""
    kind, who = action.get("kind"), action.get("fighter")
    if kind == "move" and isinstance(action.get("to"), list) and len(action["to"]) == 2:
        return f"{who} walks to ({action['to'][0]:g}, {action['to'][1]:g})"
    if kind == "leap" and isinstance(action.get("to"), list) and len(action["to"]) == 2:
        return f"{who} leaps to ({action['to'][0]:g}, {action['to'][1]:g})"
    if kind == "charge":
        return f"{who} charges {action.get('target')}" + (", firing (assault fire)" if action.get("assault") else "")
    if kind == "shoot":
        return f"{who} shoots {action.get('target')}"
    if kind == "fight":
        return f"{who} fights"
    if kind == "hold":
        return f"{who} holds"
    if kind == "tactical":
        return f"side {action.get('side')} rolls the Tactical roll"
    if kind == "flee":
        return f"{who} flees"
    if kind == "pursue":
        return f"{who} pursues {action.get('target')}" + (", leaping" if action.get("leap") else "")
    if kind == "stay":
        return f"{who} does not pursue"
    if kind == "disengage":
        return f"{who} tries to disengage ({action.get('test')} test)"
    if kind == "remove":
        return f"{who} is removed from play"
    if kind == "keep":
        return f"{who} stays in the area of losses"
    if kind == "return" and isinstance(action.get("to"), list) and len(action["to"]) == 2:
        return f"{who} comes back at ({action['to'][0]:g}, {action['to'][1]:g})"
    if kind == "lead":
        return f"side {action.get('side')} chooses: side {action.get('first')} acts first"
    if kind == "cast":
        card = mystic_rules().card(str(action.get("spell", "")))
        return f"{who} {card.verb if card else 'casts'} {action.get('spell')} on {action.get('target')}"
    if kind in ("counter", "let"):
        return f"{who} counters" if kind == "counter" else f"side {action.get('side')} lets the spell work"
    if kind == "cover" and isinstance(action.get("to"), list) and len(action["to"]) == 2:
        return f"{who} moves under cover to ({action['to'][0]:g}, {action['to'][1]:g})"
    if kind == "concentrate" and isinstance(action.get("points"), dict):
        return f"{who} concentrates: " + ", ".join(f"{c} +{n}" for c, n in action["points"].items())
    if kind == "absorb" and isinstance(action.get("from"), list):
        return f"{who} absorbs from {' and '.join(str(k) for k in action['from'])}"
    if kind in ("react", "withhold"):
        return f"{who} fires at his charger (reaction fire)" if kind == "react" else f"{who} holds his fire"
    if kind == "steady":
        return f"side {action.get('side')} is steady (no more Concentration)"
    if kind == "ready":
        return f"side {action.get('side')} is ready (no more moves under cover)"
    if kind in ("pass", "allow", "force", "decline"):
        return {"pass": f"side {action.get('side')} passes", "allow": f"side {action.get('side')} lets them pass",
                "force": f"side {action.get('side')} forces them to play (Authority)",
                "decline": f"side {action.get('side')} spends no Authority token"}[str(kind)]
    if kind == "authority_split" and isinstance(action.get("apart"), list):
        return f"side {action.get('side')} spends an Authority token on {who}'s fray"
    if kind == "split" and isinstance(action.get("apart"), list):
        return f"side {action.get('side')} splits {' and '.join(str(k) for k in action['apart'])} off their fray"
    return f"side {action.get('side')}: {kind}"
