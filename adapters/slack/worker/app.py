"""Running the Slack app: the gateway process started beside the engine, the adapter, `running` and `serve`.

Socket Mode is the default: the gateway opens a WebSocket to Slack with the
app-level token, so it needs no public URL and works behind NAT. HTTP mode
serves ``/slack/events`` (bolt checks each request's signature and
timestamp with the signing secret) for a deployment behind a load balancer.
Either way the gateway receives (`adapters.slack.gateway`) and this process
runs the turns (`adapters.slack.worker.adapter`). Everything the gateway needs
goes to it in one `GatewayConfig`, in the `Start` call.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from adapters.common import SetupError
from adapters.slack.api import RemoteApi
from adapters.slack.link import LINE_LIMIT, Link, LinkClosed
from adapters.slack.pg_store import PgSlackStore
from adapters.slack.protocol import (
    EVENTS_PATH,
    Call,
    Done,
    GatewayConfig,
    Hand,
    Http,
    Listen,
    Logging,
    Reply,
    Request,
    Settle,
    Start,
    Stop,
    Tell,
)
from adapters.slack.store import STORE_FILE, SlackStore, Store
from adapters.slack.worker.adapter import SlackAdapter
from engine import Handler

log = structlog.get_logger("adapters.slack")
GATEWAY = ("-m", "bot.slack_gateway")
"""How the gateway process starts (with this interpreter): the bot's entry, which sets up its logging."""
STOP_GATEWAY_S = 10.0
DRAIN_S = 30.0
"""How long queued turns may run on at a stop before they are cancelled (and run at the next start)."""

__all__ = ["EVENTS_PATH", "GatewayExited", "Http", "Running", "running", "serve"]


class GatewayExited(RuntimeError):
    """The gateway process ended while the app was running (see its log lines for why)."""


@dataclass(frozen=True)
class Running:
    """A started app: the adapter, in HTTP mode the port it listens on (useful with ``port=0``), the gateway."""

    adapter: SlackAdapter
    port: int | None
    gateway: asyncio.subprocess.Process
    ended: asyncio.Task[None]
    """Done when the gateway's output ends (it exited)."""


async def _spawn(command: Sequence[str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        limit=LINE_LIMIT,
    )


async def _stop(link: Link, process: asyncio.subprocess.Process) -> None:
    """Close the gateway's input (it ends when it has read everything) and wait; kill it if it hangs."""
    await link.close()
    try:
        await asyncio.wait_for(process.wait(), STOP_GATEWAY_S)
    except TimeoutError:
        log.warning("slack.gateway_killed", pid=process.pid)
        process.kill()
        await process.wait()


@asynccontextmanager
async def running(
    engine: Handler,
    *,
    token: str,
    base_url: str,
    data_dir: Path,
    http: Http | None = None,
    app_token: str | None = None,
    command: str = "/almanac",
    allowed_teams: Iterable[str] = (),
    allowed_users: Iterable[str] = (),
    eyes_after: float = 1.0,
    status_after: float = 1.0,
    status_every: float = 1.0,
    keep_replies_s: float = 600.0,
    log_format: str = "json",
    log_level: str = "INFO",
    gateway: Sequence[str] = GATEWAY,
    database_url: str | None = None,
    slots: int = 8,
) -> AsyncIterator[Running]:
    """Start the gateway, queue what a crash left, start receiving; on exit stop receiving, drain, stop it.

    ``keep_replies_s``: how long a reply Slack rate-limits is kept and sent when allowed (`SlackAdapter`).
    ``database_url``: Postgres shared by every replica: requests are claimed per conversation (``slots`` at once)
    rather than handed over by this replica's gateway (`adapters.slack.pg_store`).

    Raises:
        SetupError: a rejected token, an unreachable Web API, or neither mode configured.
    """
    if http is None and not app_token:
        raise SetupError("set SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET with SLACK_MODE=http")
    adapter: SlackAdapter | None = None

    def on_tell(tell: Tell) -> None:
        assert adapter is not None
        match tell:
            case Request():
                adapter.request(tell.queue, tell.intake, tell.spec)
            case Hand():
                adapter.press(tell.spec)
            case Done():
                log.warning("slack.link_unexpected", op=tell.op)

    async def on_call(call: Call) -> Reply:
        raise ValueError(f"the engine's side answers no calls ({call.op})")

    async with AsyncExitStack() as stack:
        process = await _spawn(gateway)
        assert process.stdout is not None and process.stdin is not None
        link = Link(process.stdout, process.stdin, on_call, on_tell)
        stack.push_async_callback(_stop, link, process)
        ended = asyncio.create_task(link.run(), name="slack-gateway-link")
        store: Store
        shared: PgSlackStore | None = None
        if database_url:
            store = shared = await PgSlackStore.open(database_url)
        else:
            store = await SlackStore.open(data_dir / STORE_FILE)
        stack.push_async_callback(store.close)
        claims = _Claims(shared, slots) if shared is not None else None

        async def settled() -> None:
            if not link.closed:
                await link.call(Settle())

        def handled(intake: int) -> None:
            if claims is not None:
                claims.finished(intake)
            # The gateway deletes the row in its next group commit: no write on this process's side.
            elif link.closed:
                store.done(intake)
            else:
                link.tell(Done(intake=intake))

        adapter = SlackAdapter(
            engine,
            store,
            RemoteApi(link),
            eyes_after=eyes_after,
            status_after=status_after,
            status_every=status_every,
            keep_replies_s=keep_replies_s,
            command=command,
            settled=settled,
            handled=handled,
        )
        config = GatewayConfig(
            token=token,
            base_url=base_url,
            data_dir=data_dir,
            app_token=app_token,
            http=http,
            command=command,
            allowed_teams=list(allowed_teams),
            allowed_users=list(allowed_users),
            log=Logging(format=log_format, level=log_level),
            database_url=database_url,
        )
        try:
            started = await link.call(Start(config=config))
        except LinkClosed:
            raise SetupError(f"the Slack gateway process exited at start-up (code {await process.wait()})") from None
        if started.setup_error is not None:
            raise SetupError(started.setup_error)
        # What a crash left is queued before anything new can arrive (and be counted twice); shared, it is
        # claimed like everything else.
        if claims is None:
            await adapter.recover()
        listening = await link.call(Listen())
        if listening.setup_error is not None:
            await adapter.drain(0, gateway_alive=False)  # the recovered requests stay pending for the next start
            raise SetupError(listening.setup_error)
        # Last in, first out: stop receiving, then let queued turns finish (their replies go out
        # through the gateway), then close its input.
        stack.push_async_callback(_drain, adapter, link)
        stack.push_async_callback(_stop_receiving, link)
        adapter.start_reminders()  # those a crash left claimed go first
        stack.push_async_callback(adapter.stop_reminders)
        if claims is not None:
            claims.start(adapter)
            stack.push_async_callback(claims.stop)
        log.info(
            "slack.started", mode="http" if http is not None else "socket", port=listening.port, gateway=process.pid
        )
        yield Running(adapter, listening.port, process, ended)


class _Claims:
    """This replica's share of the shared requests: claim, queue as a recovered request is, finish, release."""

    def __init__(self, store: PgSlackStore, slots: int) -> None:
        self._store, self._slots = store, slots
        self._running: dict[int, str] = {}  # intake id -> its conversation's queue
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self, adapter: SlackAdapter) -> None:
        self._tasks = [
            asyncio.create_task(self._store.listen(self._wake.set), name="slack.listen"),
            asyncio.create_task(self._loop(adapter), name="slack.claims"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def finished(self, intake: int) -> None:
        """A claimed request was handled (its row goes, its conversation is free: the store finishes it)."""
        queue = self._running.pop(intake, None)
        if queue is not None:
            self._store.finish(intake, queue, then=self._wake.set)

    async def _loop(self, adapter: SlackAdapter) -> None:
        while True:
            batch = []
            try:
                batch = await self._store.claim_requests(self._slots - len(self._running))
            except Exception as exc:  # the database is away: keep trying, slower
                log.warning("slack.claims_failed", error=str(exc))
                await asyncio.sleep(1.0)
            for item in batch:
                self._running[item.id] = item.queue
                if not adapter.submit_recorded(item):
                    self.finished(item.id)
            if not batch:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), 1.0)


async def _drain(adapter: SlackAdapter, link: Link) -> None:
    await adapter.drain(DRAIN_S, gateway_alive=not link.closed)


async def _stop_receiving(link: Link) -> None:
    if not link.closed:
        try:
            await link.call(Stop())
        except LinkClosed:
            pass


async def serve(
    engine: Handler,
    *,
    token: str,
    base_url: str,
    data_dir: Path,
    stopped: asyncio.Event,
    **options: Any,
) -> None:
    """Run the Slack app until ``stopped`` is set: Socket Mode with ``app_token``, else HTTP mode (`running`).

    Raises:
        SetupError: a rejected token, an unreachable Web API, or neither mode configured.
        GatewayExited: the gateway process ended on its own (the app cannot receive any more).
    """
    async with running(engine, token=token, base_url=base_url, data_dir=data_dir, **options) as app:
        waiting = asyncio.create_task(stopped.wait())
        await asyncio.wait({waiting, app.ended}, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if app.ended.done() and not stopped.is_set():
            log.error("slack.gateway_exited", code=app.gateway.returncode)
            raise GatewayExited(f"the Slack gateway process exited (code {await app.gateway.wait()})")
