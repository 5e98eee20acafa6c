"""Links another device can open (issue "The web keeper at a real table": "The second device cannot get in").

"The printed links point at ``127.0.0.1`` (or ``0.0.0.0`` with ``--host 0.0.0.0``)": now a wildcard
host gives the machine's LAN address, ``--public-url`` wins, and every link comes with a QR code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulekeeper.web import links
from rulekeeper.web.api import create_app


def test_a_wildcard_host_gives_the_lan_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")
    assert links.public_base("0.0.0.0", 8080) == ("http://192.168.1.20:8080", True)
    assert links.public_base("::", 8080) == ("http://192.168.1.20:8080", True)
    assert links.public_base("127.0.0.1", 8000) == ("http://127.0.0.1:8000", False)
    assert links.public_base("localhost", 8000) == ("http://localhost:8000", False)
    assert links.public_base("10.0.0.5", 80) == ("http://10.0.0.5:80", True)
    assert links.public_base("0.0.0.0", 8000, "https://keeper.example.org/") == ("https://keeper.example.org", True)


@pytest.mark.parametrize("bad", ["keeper.example.org", "ftp://x", "https://x/?a=1", "http://", "javascript:alert(1)"])
def test_a_public_url_that_is_no_web_address_is_refused(bad: str) -> None:
    with pytest.raises(links.PublicUrlError, match="--public-url"):
        links.check_public_url(bad)


def test_created_links_use_the_public_url_and_carry_a_qr_code(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db", public_url="http://192.168.1.20:8000"))
    page = client.post("/new", data={"scenario": "wartable:oathsworn_vs_bloodless", "seed": "2"})
    assert page.status_code == 201
    urls = re.findall(r'readonly value="([^"]+)"', page.text)
    assert len(urls) == 3 and all(u.startswith("http://192.168.1.20:8000/b/b-") for u in urls)
    assert page.text.count("<svg") == 3 and page.text.count('data-copy="link-') == 3
    assert client.get("/static/copy.js").status_code == 200


def test_the_qr_code_encodes_the_link() -> None:
    """The terminal drawing and the SVG come from one QR symbol of the whole link (segno)."""
    import segno

    url = "http://192.168.1.20:8000/b/b-0123456789abcdef?token=" + "x" * 32
    assert links.qr_svg(url).startswith("<svg") and "path" in links.qr_svg(url)
    drawing = links.qr_text(url).splitlines()
    symbol = segno.make(url, error="l")
    assert len(drawing) == (symbol.symbol_size(scale=1, border=1)[1] + 1) // 2  # two modules per text row


def test_serve_refuses_a_bad_public_url_with_exit_2(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rulekeeper.cli.app import main

    monkeypatch.setattr("sys.argv", ["rulekeeper", "serve", "--public-url", "nope", "--db", str(tmp_path / "s.db")])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2 and "--public-url" in capsys.readouterr().err
