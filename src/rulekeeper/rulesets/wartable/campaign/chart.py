"""Each Enclave's Stability round by round: the series both charts draw (SVG in the web keeper, PNG in the CLI).

The series come from the state's ``history`` (Stability at the start of every round, and after
the last one resolved), so a chart is a pure function of the stored campaign.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TypedDict

from .session import CampaignGameState

#: One colour per Enclave, in the campaign's order (cycled).
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


@dataclass(frozen=True)
class Series:
    enclave: str
    colour: str
    points: tuple[tuple[int, Fraction, bool], ...]  # (round, Stability, Fallen)


class Dot(TypedDict):
    x: float
    y: float
    v: str
    r: int
    fallen: bool
    when: str


class ChartLine(TypedDict):
    """One Enclave's polyline, its dots and where its name is written at the right."""

    enclave: str
    colour: str
    dots: list[Dot]
    points: str
    label_y: float


class Tick(TypedDict):
    x: float
    r: int
    label: str


class YTick(TypedDict):
    y: float
    v: str


class Chart(TypedDict):
    """The Stability chart's coordinates for the web template (SVG units)."""

    width: int
    height: int
    lines: list[ChartLine]
    ticks: list[Tick]
    yticks: list[YTick]
    left: int
    right: int
    top: int
    bottom: int


def stability_series(state: CampaignGameState) -> list[Series]:
    names = [e.name for e in state.campaign.enclaves]
    out = []
    for i, name in enumerate(names):
        pts = tuple((r, v, f) for r, snap in state.history for n, v, f in snap if n == name)
        out.append(Series(name, COLOURS[i % len(COLOURS)], pts))
    return out


def round_label(state: CampaignGameState, r: int) -> str:
    """The x axis' name for snapshot round ``r``: its number, or "end" for the Stability after the last round.

    Why: ``history`` keeps the Stability at the start of each round and once more after the last one,
    stored as round ``last_round + 1``; the chart of a 3-round campaign ran to a "4" nobody plays.
    """
    return "end" if r > state.last_round else str(r)


def svg_chart(state: CampaignGameState, width: int = 420, height: int = 200) -> Chart:
    """Coordinates for the web template: axes, one polyline per Enclave, a dot per round."""
    series = stability_series(state)
    rounds = [r for r, _ in state.history] or [state.round]
    top = max([float(e.full) for e in state.campaign.enclaves] + [float(v) for s in series for _, v, _ in s.points]
              + [1.0])
    left, right, pad_top, bottom = 40, 110, 12, 30
    x0, x1 = rounds[0], max(rounds[-1], rounds[0] + 1)

    def x(r: int) -> float:
        return round(left + (r - x0) * (width - left - right) / (x1 - x0), 1)

    def y(v: float) -> float:
        return round(pad_top + (1 - v / top) * (height - pad_top - bottom), 1)

    lines: list[ChartLine] = []
    for s in series:
        dots: list[Dot] = [{"x": x(r), "y": y(float(v)), "v": f"{float(v):g}", "r": r, "fallen": f,
                 "when": f"after round {state.last_round}" if r > state.last_round else f"start of round {r}"}
                for r, v, f in s.points]
        lines.append({"enclave": s.enclave, "colour": s.colour, "dots": dots,
                      "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
                      "label_y": dots[-1]["y"] if dots else y(0)})
    ticks: list[Tick] = [{"x": x(r), "r": r, "label": round_label(state, r)} for r in range(x0, x1 + 1)]
    yticks: list[YTick] = [{"y": y(v), "v": f"{v:g}"} for v in (0, top / 2, top)]
    return {"width": width, "height": height, "lines": lines, "ticks": ticks, "yticks": yticks,
            "left": left, "right": width - right, "top": pad_top, "bottom": height - bottom}


def png_chart(state: CampaignGameState, path: Path) -> Path:
    """The same chart as a PNG file (matplotlib, Agg; imported here so the CLI starts without it)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    try:
        for s in stability_series(state):
            xs = [r for r, _, _ in s.points]
            ys = [float(v) for _, v, _ in s.points]
            ax.plot(xs, ys, marker="o", color=s.colour, label=s.enclave)
            for r, v, f in s.points:
                if f:
                    ax.annotate("Fallen", (r, float(v)), textcoords="offset points", xytext=(0, 6), fontsize=7)
        ax.set_xlabel("Round (start)")
        ax.set_ylabel("Stability")
        ax.set_title(f"{state.campaign.name}: Stability")
        ax.set_ylim(bottom=0)
        rounds = [r for r, _ in state.history] or [state.round]
        ax.set_xticks(rounds, [round_label(state, r) for r in rounds])
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
    return path
