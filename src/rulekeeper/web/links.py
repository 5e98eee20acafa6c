"""Links another device can open: the keeper's public address, QR codes of links.

Why: a link that says ``127.0.0.1`` or ``0.0.0.0`` opens nothing on the phone across the
table.  ``rulekeeper serve --host 0.0.0.0`` listens on every interface, so the links name
this machine's address on the local network; behind a proxy or a tunnel only the player
knows the address, given with ``--public-url``.  Each link also comes as a QR code (segno,
pure Python): a phone's camera is the quickest way to type 43 random characters.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from markupsafe import Markup

from rulekeeper.core.errors import RulekeeperError

#: Addresses that mean "every interface": not something a browser can open.
_ANY = {"0.0.0.0", "::", ""}


class PublicUrlError(RulekeeperError):
    code = "bad_request"


def lan_address() -> str | None:
    """This machine's address on its local network, or ``None`` when it has none.

    A UDP socket "connected" to a documentation address (RFC 5737) picks the interface the
    machine would route through; nothing is sent.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback or address in _ANY else address


def check_public_url(url: str) -> str:
    """An ``http(s)://host[:port][/path]`` URL without query or fragment, trailing slash removed."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise PublicUrlError(f"--public-url must look like https://keeper.example.org or http://192.168.1.20:8000, "
                             f"got {url[:200]!r}", field="public_url")
    return url.strip().rstrip("/")


def public_base(host: str, port: int, public_url: str | None = None) -> tuple[str, bool]:
    """The base of every link the keeper hands out, and whether other devices can open it.

    ``public_url`` wins; a wildcard ``host`` becomes the LAN address (the host name when the
    machine has none); a loopback host stays, and only this machine can open its links.
    """
    if public_url:
        return check_public_url(public_url), True
    if host in _ANY:
        shown = lan_address() or socket.gethostname()
        return f"http://{_bracketed(shown)}:{port}", True
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    return f"http://{_bracketed(host)}:{port}", not loopback


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def qr_svg(url: str) -> Markup:
    """An inline SVG QR code of ``url`` (no image request, so nothing for the CSP to refuse)."""
    import segno

    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=3, border=2, dark="#1b1b1b", light="#ffffff", omitsize=True))


def qr_text(url: str) -> str:
    """The QR code of ``url`` drawn with block characters, for the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=1)
    return out.getvalue()
