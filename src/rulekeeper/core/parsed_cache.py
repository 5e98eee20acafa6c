"""Parsed data files remembered between runs, by their content.

Parsing the shipped Ex illis unit profiles (96 kB of YAML) took about a tenth of a second of
every command that needed them, ``rulekeeper odds exillis ...`` and ``battle show`` included.
The tree a data file parses to is kept in the user's cache folder under a digest of its text,
its format, the reader's limits and this module's version; the same text always gives the same
tree, so no entry can be stale, and an edited file simply has a new digest. The trees are plain
data (dicts, lists, text, numbers), stored with :mod:`marshal`: one read and one ``loads``, about
a millisecond. A tree marshal cannot hold (a YAML date), a cache folder that cannot be written,
or an entry that cannot be read just means the file is parsed, as before. Refusals are never
cached: a file that fails is read and refused again each time.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path

from .limits import LIMITS

#: The environment variable naming the cache folder (the CLI's command manifest lives there too).
CACHE_ENV = "RULEKEEPER_CACHE_DIR"
#: Files shorter than this parse faster than their cache entry is found; they are not kept.
MIN_BYTES = 4096
#: Entries kept at most: writing one more removes the oldest, so the folder stays small (a few MB) however
#: many different files a user reads over the years.
MAX_ENTRIES = 64
#: Part of every digest: a change to how files parse (or to this format) bumps it.
VERSION = "1"


def _folder() -> Path:
    folder = os.environ.get(CACHE_ENV)
    if not folder:
        import platformdirs  # only when no folder is named: it costs an import

        folder = platformdirs.user_cache_dir("rulekeeper")
    return Path(folder) / "parsed"


def _entry(text: str, suffix: str) -> Path:
    salt = f"{VERSION}|{suffix}|{LIMITS!r}|{marshal.version}|{sys.version_info[:2]}\n"
    digest = hashlib.blake2b((salt + text).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
    return _folder() / f"{digest}.marshal"


def recall(text: str, suffix: str) -> tuple[bool, object]:
    """``(True, tree)`` when ``text`` in format ``suffix`` was parsed before; ``(False, None)`` otherwise."""
    if len(text) < MIN_BYTES:
        return False, None
    try:
        raw = _entry(text, suffix).read_bytes()
        return True, marshal.loads(raw)
    except (OSError, ValueError, EOFError, TypeError):
        return False, None


def keep(text: str, suffix: str, tree: object) -> None:
    """Remember the ``tree`` that ``text`` parsed to (quietly nothing when it cannot be stored)."""
    if len(text) < MIN_BYTES:
        return
    try:
        raw = marshal.dumps(tree)  # type: ignore[arg-type]  # whatever it is: marshal says ValueError
    except ValueError:  # a type marshal does not hold: parse it each time
        return
    try:
        target = _entry(text, suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".part")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
        os.replace(temporary, target)  # whole or absent: a reader never sees half an entry
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return
    _prune(target.parent)


def _prune(folder: Path) -> None:
    """Remove the oldest entries past :data:`MAX_ENTRIES` (only when an entry was written: rare)."""
    try:
        entries = sorted(folder.glob("*.marshal"), key=lambda entry: entry.stat().st_mtime_ns)
        for old in entries[:-MAX_ENTRIES]:
            old.unlink(missing_ok=True)
    except OSError:  # another process pruned first, or the folder went away: nothing to keep small
        return
