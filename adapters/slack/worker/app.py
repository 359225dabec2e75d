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
from adapters.slack.store import STORE_FILE, SlackStore
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
) -> AsyncIterator[Running]:
    """Start the gateway, queue what a crash left, start receiving; on exit stop receiving, drain, stop it.

    ``keep_replies_s``: how long a reply Slack rate-limits is kept and sent when allowed (`SlackAdapter`).

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
        store = await SlackStore.open(data_dir / STORE_FILE)
        stack.push_async_callback(store.close)

        async def settled() -> None:
            if not link.closed:
                await link.call(Settle())

        def handled(intake: int) -> None:
            # The gateway deletes the row in its next group commit: no write on this process's side.
            if link.closed:
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
        )
        try:
            started = await link.call(Start(config=config))
        except LinkClosed:
            raise SetupError(f"the Slack gateway process exited at start-up (code {await process.wait()})") from None
        if started.setup_error is not None:
            raise SetupError(started.setup_error)
        # What a crash left is queued before anything new can arrive (and be counted twice).
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
        log.info(
            "slack.started", mode="http" if http is not None else "socket", port=listening.port, gateway=process.pid
        )
        yield Running(adapter, listening.port, process, ended)


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
