"""Where battles live: what a user typed (or nothing) made into a database URL, without SQLAlchemy.

Split from :mod:`.location` so that ``battle show`` on the default SQLite file can find it without
importing SQLAlchemy (:mod:`.sqlite_reads`); :mod:`.location` re-exports every name. Why a default
at all, and where it is: see :mod:`.location`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from .errors import MissingStoreError, StoreError

#: Environment variable that overrides the default database (a URL or a file path).
ENV_VAR = "RULEKEEPER_DB"

#: SQLite's name for a database held in memory (``--db :memory:``).
MEMORY = ":memory:"

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
    is a file path and becomes an absolute ``sqlite:///`` URL, except SQLite's own name ``:memory:``, which
    means what it means to SQLite: a database in memory (``sqlite://``), never a file called ``:memory:`` in the
    current directory.
    """
    if db is None:
        return default_db_url()
    if isinstance(db, os.PathLike):
        return sqlite_url(os.fspath(db))
    text = db.strip()
    if not text:
        return default_db_url()
    _refuse_unwritable_name(text)
    if is_url(text):
        return text
    if text == MEMORY:
        return "sqlite://"
    return sqlite_url(text)


def sqlite_file_of(url: str) -> Path | None:
    """The file a ``sqlite:///`` URL names (None for another database, or SQLite's database in memory).

    >>> sqlite_file_of("sqlite:////tmp/battles.db?timeout=5")
    PosixPath('/tmp/battles.db')
    >>> sqlite_file_of("sqlite://") is None, sqlite_file_of("postgresql://club/battles") is None
    (True, True)
    """
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return None
    name = url[len(prefix):].split("?", 1)[0]
    if not name or name == MEMORY or name.startswith("file:"):
        return None
    return Path(name)


def missing_file(db: str | os.PathLike[str] | None) -> Path | None:
    """The SQLite file ``db`` names when it is not there yet (None: it is, or ``db`` is no SQLite file, or a name no
    file system takes, which the store refuses when it opens it)."""
    path = sqlite_file_of(normalise_url(db))
    try:
        return path if path is not None and not path.exists() else None
    except OSError:
        return None


def require_existing(db: str | os.PathLike[str] | None) -> None:
    """Refuse a store named on purpose (``--db``) that is a SQLite file not there: :class:`MissingStoreError`.

    The default store (nothing named, or ``$RULEKEEPER_DB``) is left to be created, so that a fresh install lists
    no battles instead of failing; a server's URL is the server's business.
    """
    if db is None or not os.fspath(db).strip():
        return
    path = missing_file(db)
    if path is not None:
        raise MissingStoreError(
            f"There is no battle store at {str(path)!r}: the file does not exist. Check --db; "
            "rulekeeper battle new (or battle import) with --db FILE starts one there.", path=str(path))


def _refuse_unwritable_name(text: str) -> None:
    """Refuse a database name no file system or server can hold, before a driver chokes on it.

    Why here: a NUL byte (typed, or URL-escaped as ``%00``, which SQLAlchemy unescapes) makes
    sqlite3 raise a bare ``ValueError``, and an argument that is not UTF-8 (Python keeps its
    bytes as lone surrogates) a ``UnicodeEncodeError`` — both tracebacks rather than an answer.
    """
    if "\x00" in text or "%00" in text:
        raise StoreError(f"the database name {text!r} holds a NUL byte, which no file name or URL may hold",
                         url=text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(f"the database name {text!r} is not valid UTF-8 text", url=text) from None
