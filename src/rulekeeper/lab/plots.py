"""PNG figures (matplotlib's Agg backend, imported only when a figure is asked for)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from rulekeeper.core.duels import DuelRequest, DuelTally
from rulekeeper.core.wording import counted

from .errors import LabRequestError

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _pyplot() -> ModuleType:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Figure, path: Path) -> None:
    if not path.absolute().parent.is_dir():
        raise LabRequestError(f"--plot {str(path)!r}: the folder {str(path.absolute().parent)!r} does not exist",
                              plot=str(path))
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise LabRequestError(f"cannot write {str(path)!r} ({exc.strerror})", plot=str(path)) from None
    except ValueError as exc:  # matplotlib: "Format 'json' is not supported (supported formats: ...)"
        raise LabRequestError(f"--plot {str(path)!r}: {exc}", plot=str(path)) from None


def duel_histogram(path: Path, request: DuelRequest, tally: DuelTally) -> None:
    """Rounds to decide, and each side's survivors, as three bar charts of shares."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    n = max(1, tally.battles)
    for ax, hist, title in ((axes[0], tally.rounds, "rounds to decide"),
                            (axes[1], tally.first_survivors, f"{request.first} left"),
                            (axes[2], tally.second_survivors, f"{request.second} left")):
        keys = sorted(hist)
        ax.bar(keys, [hist[k] / n for k in keys], color="#4c72b0")
        ax.set_title(title)
        ax.set_ylabel("share of battles")
    fig.suptitle(f"{request.first} (level {request.first_level}) vs {request.second} (level {request.second_level}),"
                 f" {counted(tally.battles, 'battle')}, {tally.method}")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def heatmap(path: Path, units: list[str], scores: dict[tuple[str, str], float], title: str) -> None:
    """The first unit's score (rows) against each second unit (columns), 0 red to 1 blue."""
    plt = _pyplot()
    size = max(4.0, 0.55 * len(units) + 2.5)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    grid = [[scores.get((a, b), float("nan")) for b in units] for a in units]
    image = ax.imshow(grid, cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(units)), units, rotation=60, ha="right")
    ax.set_yticks(range(len(units)), units)
    ax.set_xlabel("second unit")
    ax.set_ylabel("first unit")
    if len(units) <= 16:
        for i, row in enumerate(grid):
            for j, value in enumerate(row):
                ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7)
    fig.colorbar(image, ax=ax, label="score")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
