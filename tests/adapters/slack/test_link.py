"""The link between the worker and the gateway: every protocol message arrives as it was sent, typed.

Each call, reply and tell of `adapters.slack.protocol` goes through two real
`Link` ends over a socket pair and comes out equal to what went in. A line
that is not JSON, or not a message of the protocol, is logged and skipped: the
link goes on reading, and a call it cannot read is answered with a failure, so
its caller does not wait for ever. The intake rows of ``slack.db`` are
`Post` and `Slash` too: rows written before these models read back the same,
and a row no model reads is logged and dropped at start, not a crash.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import cast

import pytest
from structlog.testing import capture_logs

from adapters.slack.actions import Press
from adapters.slack.api import SlackApi
from adapters.slack.link import CallFailed, Link
from adapters.slack.place import Place
from adapters.slack.protocol import (
    ACCEPTED,
    Api,
    Call,
    Done,
    ForgetConfirmed,
    GatewayConfig,
    Hand,
    Http,
    Listen,
    Logging,
    Post,
    Pressed,
    Reply,
    Request,
    Respond,
    ReviseSubmitted,
    Settle,
    Slash,
    Start,
    Stop,
    Tell,
)
from adapters.slack.store import SlackStore
from adapters.slack.worker.adapter import SlackAdapter
from engine import Handler

PLACE = Place("T1", "C1", "1700000000.000100", "U1", "https://hooks.slack.test/r/1")
PRESS = Press("choice", "int-1", "U1", PLACE.conversation, index=2)
CALLS: list[Call] = [
    Start(
        config=GatewayConfig(
            token="xoxb-1",
            base_url="http://127.0.0.1:1/api/",
            data_dir=Path("/tmp/data"),
            app_token=None,
            http=Http(signing_secret="s3cret", host="127.0.0.1", port=0),
            command="/almanac",
            allowed_teams=["T1"],
            allowed_users=["U1", "slack:T1:U2"],
            log=Logging(format="console", level="DEBUG"),
        )
    ),
    Listen(),
    Api(method="chat_postMessage", args={"channel": "C1", "text": "안녕 — hi", "blocks": [{"type": "divider"}]}),
    Respond(url="https://hooks.slack.test/r/1", args={"text": "ok", "replace_original": True}),
    Settle(),
    Stop(),
]
REPLIES = [
    Reply(bot_user="UALMANAC"),
    Reply(port=3000),
    Reply(data={"ok": True, "ts": "1.2"}),
    Reply(),
    Reply(setup_error="no"),
    Reply(refused=True, data={"error": "ratelimited"}, retry_after=2.5),
]
TELLS: list[Tell] = [
    Request(queue=PLACE.conversation, intake=1, spec=Post(place=PLACE, text="bench 55kg 10x5", ts="1.1", at=1.5)),
    Request(queue=PLACE.conversation, intake=2, spec=Slash(place=PLACE, name="status", arg="", at=2.5, id="trigger-1")),
    Hand(spec=Pressed(place=PLACE, press=PRESS, channel="C1", ts="1.3", blocks=[{"type": "section"}], ephemeral=True)),
    Hand(
        spec=ReviseSubmitted(
            place=PLACE,
            press=Press("revise", "int-2", "U1", PLACE.conversation),
            channel="C1",
            ts="1.4",
            feedback="smaller jumps",
        )
    ),
    Hand(spec=ForgetConfirmed(place=PLACE)),
    Done(intake=1),
]


@asynccontextmanager
async def _streams() -> AsyncIterator[
    tuple[tuple[asyncio.StreamReader, asyncio.StreamWriter], tuple[asyncio.StreamReader, asyncio.StreamWriter]]
]:
    a, b = socket.socketpair()
    one = await asyncio.open_connection(sock=a)
    two = await asyncio.open_connection(sock=b)
    try:
        yield one, two
    finally:
        for _, writer in (one, two):
            writer.close()


async def test_every_call_reply_and_tell_arrives_as_it_was_sent() -> None:
    calls: list[Call] = []
    tells: list[Tell] = []
    replies = iter(REPLIES)

    async def answer(call: Call) -> Reply:
        calls.append(call)
        return next(replies, Reply())

    async def no_calls(call: Call) -> Reply:
        raise AssertionError(call)

    async with _streams() as ((r1, w1), (r2, w2)):
        worker = Link(r1, w1, no_calls, tells.append)
        gateway = Link(r2, w2, answer, tells.append)
        running = [asyncio.create_task(worker.run()), asyncio.create_task(gateway.run())]
        got = [await worker.call(call) for call in CALLS]
        for tell in TELLS:
            (worker if isinstance(tell, Done) else gateway).tell(tell)
        await worker.call(Settle())  # after the tells, in order: they have all been read
        await gateway.close()
        await worker.close()
        await asyncio.gather(*running)

    assert calls[: len(CALLS)] == CALLS
    assert got == REPLIES
    assert sorted(map(repr, tells)) == sorted(map(repr, TELLS))
    assert [t for t in tells if not isinstance(t, Done)] == TELLS[:-1]  # in the order told
    pressed = tells[2]
    assert isinstance(pressed, Hand) and isinstance(pressed.spec, Pressed)
    assert pressed.spec.press == PRESS and pressed.spec.place == PLACE  # the press itself, read once by the gateway


async def test_a_call_that_raises_fails_in_the_caller_and_the_link_goes_on() -> None:
    async def refuse(call: Call) -> Reply:
        if isinstance(call, Stop):
            raise RuntimeError("not now")
        return Reply()

    async def no_calls(call: Call) -> Reply:
        raise AssertionError(call)

    async with _streams() as ((r1, w1), (r2, w2)):
        worker, gateway = Link(r1, w1, no_calls, print), Link(r2, w2, refuse, print)
        running = [asyncio.create_task(worker.run()), asyncio.create_task(gateway.run())]
        with pytest.raises(CallFailed, match="RuntimeError: not now"):
            await worker.call(Stop())
        assert await worker.call(Listen()) == Reply()
        await gateway.close()
        await worker.close()
        await asyncio.gather(*running)


@pytest.mark.parametrize(
    "line",
    [
        b"not json at all\n",
        b"[1, 2, 3]\n",
        b'{"op": "delete_everything"}\n',
        b'{"intake": 3}\n',
        b'{"op": "done", "intake": "three"}\n',
        b'{"op": "press", "spec": {"kind": "press", "place": {"team": "T1"}}}\n',
        b'{"op": "press", "spec": {"kind": "explode", "place": {}}}\n',
        b'{"re": "x"}\n',
        b'{"id": "x", "op": "settle"}\n',
    ],
)
async def test_a_garbled_or_unknown_message_is_logged_and_skipped_not_a_crash(line: bytes) -> None:
    tells: list[Tell] = []

    async def no_calls(call: Call) -> Reply:
        raise AssertionError(call)

    async with _streams() as ((_r1, w1), (r2, w2)):
        gateway = Link(r2, w2, no_calls, tells.append)
        running = asyncio.create_task(gateway.run())
        with capture_logs() as logs:
            w1.write(line + b'{"op": "done", "intake": 9}\n')
            await w1.drain()
            for _ in range(100):
                if tells:
                    break
                await asyncio.sleep(0.01)
        assert tells == [Done(intake=9)], "the link reads on after a bad line"
        assert not gateway.closed
        events = [entry["event"] for entry in logs if entry["log_level"] == "error"]
        assert events in (["slack.link_garbled"], ["slack.link_rejected"]), logs
        w1.close()
        await running


async def test_a_call_that_cannot_be_read_gets_a_failed_reply() -> None:
    async def no_calls(call: Call) -> Reply:
        raise AssertionError(call)

    async with _streams() as ((r1, w1), (r2, w2)):
        gateway = Link(r2, w2, no_calls, print)
        running = asyncio.create_task(gateway.run())
        with capture_logs() as logs:
            w1.write(b'{"id": 5, "op": "format_disk"}\n{"id": 6, "op": "api", "method": "chat_postMessage"}\n')
            await w1.drain()
            first, second = json.loads(await r1.readline()), json.loads(await r1.readline())
        assert first["re"] == 5 and first["failed"].startswith("unreadable call:")
        assert second["re"] == 6 and "args" in second["failed"]
        assert [(e["event"], e["op"]) for e in logs] == [
            ("slack.link_rejected", "format_disk"),
            ("slack.link_rejected", "api"),
        ]
        w1.close()
        await running


def test_intake_rows_written_before_the_protocol_read_back_the_same() -> None:
    """`Post` and `Slash` are the intake row of ``slack.db``: a row a crash left before an upgrade still runs."""
    place = {"team": "T1", "channel": "C1", "thread_ts": None, "user": "U1", "response_url": None}
    post = {"kind": "post", "place": place, "text": "bench 55kg 10x5", "ts": "1.1", "at": 1.5}
    slash = {"kind": "slash", "place": place, "name": "log", "arg": "squat 100kg 5x5", "at": 2.5, "id": "trig"}
    for row in (post, slash):
        spec = ACCEPTED.validate_python(row)
        assert spec.place == Place("T1", "C1", None, "U1")
        assert spec.model_dump(mode="json") == row


async def test_an_unreadable_intake_row_is_logged_and_dropped_at_start_not_a_crash(tmp_path: Path) -> None:
    store = await SlackStore.open(tmp_path / "slack.db")
    try:
        await store.accept(["event:Ev1"], "slack:T1:D1", {"kind": "post", "text": "no place"})
        adapter = SlackAdapter(cast(Handler, object()), store, cast(SlackApi, object()))
        with capture_logs() as logs:
            assert await adapter.recover() == 1
        assert [e["event"] for e in logs if e["log_level"] == "error"] == ["slack.recovered_unreadable"]
        assert await store.pending() == []
        await adapter.drain(0)
    finally:
        await store.close()
