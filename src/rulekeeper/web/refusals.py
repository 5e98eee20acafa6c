"""Typed errors of the muster, campaign and download pages as 4xx pages in the keeper's format.

Why a module: these pages refuse with codes the battle pages never meet (``already_recorded``,
``battle_not_over``, ``export_not_ready``…); their HTTP status and banner headline are kept here,
beside the battle pages' own table (``pages.PAGE_STATUS``), so every page answers a code the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi.responses import HTMLResponse

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.persistence.store import BattleNotFoundError

from .pages import ERROR_TITLES, PAGE_STATUS, error_code

if TYPE_CHECKING:
    from .pages import Pages

#: Codes of these pages, and the status each answers (the rest: ``pages.PAGE_STATUS``).
EXTRA_STATUS = {
    "already_recorded": 409, "battle_not_over": 409, "not_from_musters": 409, "campaign_mismatch": 409,
    "no_campaign": 409, "export_not_ready": 409, "invalid_muster": 422, "battle_setup": 422,
    "board_too_small": 422, "too_large": 413,
}
EXTRA_TITLES = {
    "already_recorded": "Already recorded", "battle_not_over": "Nothing to record yet",
    "not_from_musters": "Not a battle from musters", "campaign_mismatch": "The campaign disagrees",
    "no_campaign": "No campaign", "export_not_ready": "Not yet", "data_file": "Cannot read it",
    "too_large": "Too large",
}


class ExportNotReadyError(RulekeeperError):
    """The battle export holds the seed of fate: only a finished, fully revealed battle gives it out."""

    code = "export_not_ready"


class NoCampaignError(RulekeeperError):
    code = "no_campaign"


class NotRecordableYetError(RulekeeperError):
    code = "battle_not_over"


class TooLargeError(RulekeeperError):
    code = "too_large"


def status_of(exc: RulekeeperError) -> int:
    code = error_code(exc)
    return EXTRA_STATUS.get(code) or PAGE_STATUS.get(code, 400)


def error_ctx(exc: RulekeeperError | None) -> dict[str, str] | None:
    """What ``error_banner.html`` shows: a headline, the message and the stable code."""
    if exc is None:
        return None
    code = error_code(exc)
    title = EXTRA_TITLES.get(code) or ERROR_TITLES.get(code, "Refused")
    return {"code": code, "title": title, "message": exc.message}


def refuse(pages: Pages, exc: RulekeeperError) -> HTMLResponse:
    """A typed error as a page of its own; a missing battle or a bad link is the keeper's one 404."""
    if isinstance(exc, BattleNotFoundError):
        return pages.not_found()
    return pages.html("error.html", status_of(exc), title="Error", error=error_ctx(exc))
