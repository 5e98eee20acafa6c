"""How the keeper is served: uvicorn with a bound on slow request heads, on a socket it owns.

Why each piece:

* **A header timeout.**  uvicorn bounds an idle keep-alive connection but not a request head
  that trickles in: 19,990 slow-header connections were held 60–90 s.
  :class:`TimedH11Protocol` closes a connection whose request head is not complete within
  :data:`HEADER_TIMEOUT` seconds (the body's bound is :mod:`.bodylimit`'s).
* **Trusted proxies only.**  ``X-Forwarded-For`` is read only from the addresses given
  (``--forwarded-allow-ips``; none by default), so no client can pick the address the rate
  limits count (:mod:`.ratelimit`).
* **A socket of its own.**  ``--port 0`` binds a free port and prints it; the keeper keeps the
  bound socket, so no other process can take the port between choosing and serving it.
* **Several processes** (``--workers N``) share one PostgreSQL database; each builds its own
  app from the environment :func:`worker_app` reads.
* **Fair accepting.**  The processes share one listening socket, and asyncio's loop accepts
  up to its whole backlog (2048) each time the socket is readable: the first process awake
  took whole bursts of connections, and since a browser keeps its connection (and its live
  stream) open, one process served 4 of 5 of them while the other idled (the convention-hall
  bench: 2 processes no faster than 1).  :class:`FairAcceptLoop` takes
  :data:`ACCEPT_BURST` per look, leaving the rest to a process that is waiting.  Unlike
  ``SO_REUSEPORT`` (one queue per process, connections hashed onto them), a stopped or
  stuck process is handed no connection at all.
"""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from fastapi import FastAPI

#: Connections one process accepts each time the shared listening socket is readable.
ACCEPT_BURST = 1

#: Seconds a request head (request line and headers) may take to arrive.
HEADER_TIMEOUT = float(os.environ.get("RULEKEEPER_HEADER_TIMEOUT") or 10.0)

#: The environment a worker process builds its app from (``rulekeeper serve --workers``).
ENV_DB, ENV_HOST_KEY, ENV_PUBLIC_URL = "RULEKEEPER_SERVE_DB", "RULEKEEPER_SERVE_HOST_KEY", "RULEKEEPER_SERVE_PUBLIC_URL"


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is too slow."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEADER_TIMEOUT, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:  # still waiting for a head
            if not self.transport.is_closing():
                self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the head is in: the app (and the body's own bound) take over

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head is bounded the same way

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class FairAcceptLoop(asyncio.SelectorEventLoop):
    """asyncio's loop, accepting :data:`ACCEPT_BURST` connections per readiness of a listening socket
    (uvicorn's ``loop`` option names it by import string, so every ``--workers`` process builds it)."""

    def _accept_connection(self, protocol_factory: Callable[[], asyncio.BaseProtocol], sock: socket.socket,
                           sslcontext: ssl.SSLContext | None = None, server: asyncio.AbstractServer | None = None,
                           backlog: int = 100, *args: object) -> None:
        super()._accept_connection(  # type: ignore[misc]
            protocol_factory, sock, sslcontext, server, min(backlog, ACCEPT_BURST), *args)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one, chosen by the kernel)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class UvicornOptions(TypedDict):
    """The keyword arguments :func:`uvicorn_options` gives ``uvicorn.Config`` / ``uvicorn.run``."""

    http: type[TimedH11Protocol]
    loop: str
    proxy_headers: bool
    forwarded_allow_ips: str
    timeout_keep_alive: int
    h11_max_incomplete_event_size: int
    log_level: str
    timeout_graceful_shutdown: int


#: Seconds a stopping keeper waits for open requests.  Without a bound, Ctrl-C (or a service manager's SIGTERM)
#: waited for every open battle page's live stream, up to its ten-minute lifetime; the pages reconnect by themselves
#: to the next keeper, so their streams are simply cut.
GRACEFUL_SHUTDOWN = 3


def uvicorn_options(forwarded_allow_ips: str | None) -> UvicornOptions:
    """What every way of serving the keeper passes to uvicorn (the tests' keeper included)."""
    return {"http": TimedH11Protocol, "loop": "rulekeeper.web.server:FairAcceptLoop", "proxy_headers": forwarded_allow_ips is not None,
            "forwarded_allow_ips": forwarded_allow_ips or "", "timeout_keep_alive": 5,
            "h11_max_incomplete_event_size": 16 * 1024, "log_level": "warning",
            "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN}


def worker_app() -> FastAPI:
    """The app of one worker process (``uvicorn`` factory): the parent's settings from the environment."""
    from .api import create_app

    return create_app(os.environ[ENV_DB], host_key=os.environ.get(ENV_HOST_KEY) or None,
                      public_url=os.environ.get(ENV_PUBLIC_URL) or None)
