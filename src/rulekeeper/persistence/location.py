"""Where battles live by default, and how a ``--db`` argument becomes a database URL.

Why a default at all: a player who types ``rulekeeper battle new`` tonight must find
the battle tomorrow without remembering a path, so the store sits in the user's data
directory (``platformdirs``: ``~/.local/share/rulekeeper`` on Linux,
``~/Library/Application Support/rulekeeper`` on macOS, ``%LOCALAPPDATA%`` on
Windows).  ``RULEKEEPER_DB`` overrides it (a URL or a plain path), which is how
tests, clubs with a shared PostgreSQL server and portable installs point elsewhere.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

#: Environment variable that overrides the default database (a URL or a file path).
ENV_VAR = "RULEKEEPER_DB"

#: File name of the default SQLite database inside the user data directory.
DB_FILENAME = "rulekeeper.db"

# ``scheme://`` or ``dialect+driver://``; a Windows path such as ``C:\x`` does not match.
_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")


def is_url(text: str) -> bool:
    """True when ``text`` is a database URL rather than a file path."""
    return bool(_URL_RE.match(text))


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """The ``sqlite:///`` URL of a file path, made absolute so the cwd does not matter."""
    resolved = Path(path).expanduser().resolve()
    return f"sqlite:///{resolved}"


def _ensure_parent(path: Path) -> None:
    """Create the directory that will hold the database, with a clear error if we cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        # Imported here because store.py imports this module (the error classes live there).
        from .store import StoreError

        raise StoreError(
            f"cannot create the directory {str(path.parent)!r} for the battle database: {exc.strerror or exc}",
            path=str(path),
        ) from exc


def default_db_url() -> str:
    """The database used when none is given: ``$RULEKEEPER_DB`` or the user data directory.

    A path (from the environment or the default) has its directory created, so the
    first battle of a fresh install just works; a URL is passed through untouched.
    """
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        if is_url(override):
            return override
        path = Path(override).expanduser().resolve()
    else:
        path = Path(platformdirs.user_data_dir("rulekeeper")) / DB_FILENAME
    _ensure_parent(path)
    return sqlite_url(path)


def normalise_url(db: str | os.PathLike[str] | None) -> str:
    """Turn what a user typed into a SQLAlchemy URL.

    ``None`` (or an empty string) means the default; a URL (``sqlite:///...``,
    ``postgresql://...``, ``postgresql+psycopg://...``) passes through; anything else
    is a file path and becomes an absolute ``sqlite:///`` URL.
    """
    if db is None:
        return default_db_url()
    if isinstance(db, os.PathLike):
        return sqlite_url(os.fspath(db))
    text = db.strip()
    if not text:
        return default_db_url()
    if is_url(text):
        return text
    return sqlite_url(text)
