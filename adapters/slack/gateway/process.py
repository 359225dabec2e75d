"""The Slack gateway: a process of its own that holds every connection to Slack.

It receives (the bolt app in HTTP mode or Socket Mode), acknowledges,
records and de-duplicates (`adapters.slack.gateway.listeners`), hands accepted
work to the engine's process (the worker), and makes the Web API calls that
process asks for (`adapters.slack.api`). The worker starts it
(`adapters.slack.worker.app`) and talks to it over its standard input and
output (`adapters.slack.link`), in the messages of `adapters.slack.protocol`:

- the worker calls `Start` (the set-up and token checks), `Listen` (once it
  has queued what a crash left), `Api` and `Respond` (Web API calls and
  response URLs), `Settle` (wait for notices sent from here) and `Stop` (stop
  receiving);
- the gateway tells `Request` and `Hand`, in the order it accepted them; the
  worker tells `Done` when a request was handled (the gateway deletes its
  intake row, so a turn costs that process no write).

It needs no engine and reads no settings: everything comes in `Start`'s
`GatewayConfig`. It
ends when its input closes (the engine's process stopped, or died): SIGINT
and SIGTERM are left to the engine's process, which stops receiving first
and lets the replies of queued turns go out through here before it closes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import assert_never

import aiohttp
import structlog
from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from adapters.common import SetupError
from adapters.common.budget import Budget
from adapters.slack.api import LocalApi, answer
from adapters.slack.gateway.listeners import Listeners
from adapters.slack.gateway.setup import build_app, check_app_token, check_token, web_client
from adapters.slack.link import LINE_LIMIT, Link
from adapters.slack.pg_store import PgSlackStore
from adapters.slack.protocol import (
    EVENTS_PATH,
    Api,
    Call,
    Done,
    GatewayConfig,
    Hand,
    Handed,
    Http,
    Listen,
    Post,
    Reply,
    Request,
    Respond,
    Settle,
    Slash,
    Start,
    Stop,
    Tell,
)
from adapters.slack.send import Outbox
from adapters.slack.store import STORE_FILE, SlackStore, Store

log = structlog.get_logger("adapters.slack")
Configure = Callable[[GatewayConfig], None]
"""Sets up logging from `GatewayConfig.log` and masks `GatewayConfig.secrets`."""


class _LinkHandoff:
    """Accepted work goes to the worker, as tells (in order).

    Shared (Postgres) requests are not told: the store's ``NOTIFY`` wakes every replica's worker, and the
    one that claims the conversation runs them (`adapters.slack.pg_store`). Presses are told still.
    """

    def __init__(self, link: Link, shared: bool = False) -> None:
        self._link, self._shared = link, shared

    def request(self, queue: str, intake: int, spec: Post | Slash) -> None:
        if not self._shared:
            self._link.tell(Request(queue=queue, intake=intake, spec=spec))

    def press(self, spec: Handed) -> None:
        self._link.tell(Hand(spec=spec))


class Gateway:
    """The gateway's state between ``start`` and the end of its input."""

    def __init__(self, configure: Configure) -> None:
        self._configure = configure
        self.stack = AsyncExitStack()
        self.receiving = AsyncExitStack()
        self.api: LocalApi | None = None
        self.listeners: Listeners | None = None
        self.link: Link | None = None
        self.app: AsyncApp | None = None
        self.bare: AsyncWebClient | None = None
        self.http: Http | None = None
        self.app_token = ""
        self.store: Store | None = None

    async def on_call(self, call: Call) -> Reply:
        match call:
            case Api() | Respond():
                assert self.api is not None, "start first"
                return await answer(self.api, call)
            case Start(config=config):
                try:
                    return await self.start(config)
                except SetupError as exc:
                    return Reply(setup_error=str(exc))
            case Listen():
                try:
                    return await self.listen()
                except SetupError as exc:
                    return Reply(setup_error=str(exc))
            case Settle():
                if self.listeners is not None:
                    await self.listeners.settle()
                return Reply()
            case Stop():
                await self.receiving.aclose()
                if self.listeners is not None:
                    await self.listeners.settle()
                return Reply()
            case _:
                assert_never(call)

    async def start(self, config: GatewayConfig) -> Reply:
        """Check the token(s), open ``slack.db``, make the app; our member id. Web API calls work from here on."""
        self._configure(config)
        assert self.link is not None
        session = aiohttp.ClientSession()
        self.stack.push_async_callback(session.close)
        base_url, token = config.base_url, config.token
        api = LocalApi(web_client(token, base_url, session))
        bot_user = await check_token(api.client, base_url)
        self.api = api
        store: Store
        if config.database_url:
            store = await PgSlackStore.open(config.database_url)
        else:
            store = await SlackStore.open(config.data_dir / STORE_FILE)
        self.stack.push_async_callback(store.close)
        self.store = store
        # The budget is for progress reactions, which the engine's side sends; notices from here never wait.
        listeners = Listeners(
            store,
            Outbox(api, Budget(per_second=1.0, burst=5)),
            _LinkHandoff(self.link, shared=config.database_url is not None),
            command=config.command,
            allowed_teams=config.allowed_teams,
            allowed_users=config.allowed_users,
        )
        self.listeners = listeners
        # bolt hands listeners a copy of this client with the token (authorize); it shares the session.
        bare = web_client(None, base_url, session)
        http = config.http
        self.app = build_app(listeners, bare, token, bot_user, http.signing_secret if http else None)
        self.http, self.bare = http, bare
        if not http:
            app_token = config.app_token or ""
            await check_app_token(bare, app_token)
            self.app_token = app_token
        return Reply(bot_user=bot_user)

    async def listen(self) -> Reply:
        """Start receiving: the HTTP port (HTTP mode)."""
        assert self.app is not None and self.bare is not None, "start first"
        http, app = self.http, self.app
        port: int | None = None
        if http:
            runner = web.AppRunner(app.web_app(path=EVENTS_PATH), access_log=None)
            await runner.setup()
            self.receiving.push_async_callback(runner.cleanup)
            try:
                await web.TCPSite(runner, http.host, http.port).start()
            except OSError as exc:
                raise SetupError(
                    f"cannot listen on {http.host}:{http.port} "
                    f"(SLACK_HTTP_LISTEN, SLACK_HTTP_PORT): {exc.strerror or exc}"
                ) from None
            # aiohttp keeps the listening sockets on the runner; port 0 asked the OS for a free one.
            port = int(runner.addresses[0][1])
        else:
            handler = AsyncSocketModeHandler(app, app_token=self.app_token, web_client=self.bare)
            self.receiving.push_async_callback(handler.close_async)
            await handler.connect_async()  # type: ignore[no-untyped-call]
        log.info("slack.gateway_started", mode="http" if http else "socket", port=port, pid=os.getpid())
        return Reply(port=port)

    def on_tell(self, tell: Tell) -> None:
        match tell:
            case Done(intake=intake) if self.store is not None:
                self.store.done(intake)
            case _:
                log.warning("slack.gateway_unexpected", op=tell.op)

    async def run(self) -> None:
        """Serve the link on standard input and output until the input ends."""
        loop = asyncio.get_running_loop()
        # The link owns the real standard output; anything printed by mistake goes to stderr instead.
        out = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        reader = asyncio.StreamReader(limit=LINE_LIMIT)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, out)
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
        self.link = Link(reader, writer, self.on_call, self.on_tell)
        try:
            await self.link.run()
        finally:
            await self.receiving.aclose()
            await self.link.close()
            await self.stack.aclose()


def main(configure: Configure) -> None:
    """The gateway process: until its standard input ends."""
    # Ctrl-C in a terminal and systemd's SIGTERM reach the whole process group; the engine's
    # process decides when this one ends (it closes our input after its replies went out).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    asyncio.run(Gateway(configure).run())
