"""A real ``chroma run`` server on loopback, and a token-checking proxy in front of it.

The proxy does what ``deploy/chroma-proxy/templates/default.conf.template`` tells
nginx to do: a request whose ``Authorization`` is not ``Bearer <token>`` gets 401
with a Chroma-shaped JSON body; every other request is passed on unchanged.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

CHROMA = shutil.which("chroma", path=str(Path(sys.executable).parent))

REFUSAL = {"error": "AuthError", "message": "missing or wrong bearer token"}
"""The proxy's 401 body, the same as the nginx template's."""

# Hop-by-hop headers (RFC 9110 §7.6.1) and the ones aiohttp sets itself from the body it sends.
_HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "te", "trailer", "content-length", "host"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def chroma_server(path: Path) -> Iterator[int]:
    """``chroma run`` on a free loopback port with its data under ``path``; yields the port."""
    if CHROMA is None:
        pytest.skip("the chroma command is not installed")
    port = free_port()
    server = subprocess.Popen(
        [CHROMA, "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("chroma run did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


class TokenProxy:
    """An HTTP proxy on loopback that passes on only requests bearing ``token`` (changeable while it runs)."""

    def __init__(self, upstream_port: int, token: str) -> None:
        self.token = token
        self.refused = 0
        """Requests answered 401."""
        self.forwarded = 0
        """Requests passed on to Chroma."""
        self.port = 0
        self._upstream = f"http://127.0.0.1:{upstream_port}"
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            self.refused += 1
            return web.json_response(REFUSAL, status=401)
        assert self._session is not None
        self.forwarded += 1
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        async with self._session.request(
            request.method, self._upstream + str(request.rel_url), headers=headers, data=await request.read()
        ) as upstream:
            body = await upstream.read()  # decompressed by aiohttp: so Content-Encoding goes too
            kept = {k: v for k, v in upstream.headers.items() if k.lower() not in _HOP | {"content-encoding"}}
            return web.Response(status=upstream.status, body=body, headers=kept)

    async def _start(self) -> None:
        self._session = aiohttp.ClientSession()
        app = web.Application(client_max_size=64 * 1024 * 1024)  # a batch of vectors is larger than 1 MiB
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))  # bound here, so the port is known without reading aiohttp's internals
        self.port = int(sock.getsockname()[1])
        await web.SockSite(self._runner, sock).start()

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    @contextmanager
    def running(self) -> Iterator[TokenProxy]:
        """Serve in a thread of its own (the knowledge base's client is synchronous) until the block ends."""
        thread = threading.Thread(target=self._loop.run_forever, name="chroma-token-proxy", daemon=True)
        thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)
        try:
            yield self
        finally:
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            thread.join(timeout=10)
            self._loop.close()
