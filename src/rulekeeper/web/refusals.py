"""Typed errors of the muster, campaign and download pages as 4xx pages in the keeper's format.

Why a module: these pages refuse with codes the battle pages never meet (``already_recorded``,
``battle_not_over``, ``export_not_ready``…); their HTTP status and banner headline sit in the battle pages'
one table (``pages.PAGE_STATUS``, ``pages.ERROR_TITLES``), so every page answers a code the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi.responses import HTMLResponse

from rulekeeper.core.errors import RulekeeperError

from .pages import PAGE_STATUS
from .pages import _error_ctx as error_ctx  # noqa: F401 (the banner of every page)

if TYPE_CHECKING:
    from .pages import Pages

__all__ = ["ExportNotReadyError", "NoCampaignError", "NotRecordableYetError", "TooLargeError", "error_ctx", "refuse",
           "status_of"]


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
    return PAGE_STATUS.get(exc.code, 400)


def refuse(pages: Pages, exc: RulekeeperError) -> HTMLResponse:
    """A typed error as a page of its own (the battle pages' own refusal: one table of codes for all)."""
    return pages.refusal(exc)
