"""Tests of the fake Ollama server, driven by the real ``ollama`` client."""

from __future__ import annotations

import asyncio
import json
import math
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator

import httpx
import ollama
import pytest
from pydantic import BaseModel

from tests.fakes.ollama_server import (
    DEFAULT_MODEL,
    EMBED_TITLE,
    TEXT_TITLE,
    Delay,
    Fail,
    FakeOllama,
    Hang,
)

MODEL = DEFAULT_MODEL
EMBED_MODEL = "nomic-embed-text:latest"
MESSAGES = [{"role": "user", "content": "How was my week?"}]


class Verdict(BaseModel):
    """A tiny structured-output schema; its title is "Verdict"."""

    ok: bool
    reason: str


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama(models=(MODEL, EMBED_MODEL)) as server:
        yield server


@pytest.fixture
def client(fake: FakeOllama) -> Iterator[ollama.Client]:
    with ollama.Client(host=fake.url) as sync_client:
        yield sync_client


@pytest.fixture
async def aclient(fake: FakeOllama) -> AsyncIterator[ollama.AsyncClient]:
    async with ollama.AsyncClient(host=fake.url) as async_client:
        yield async_client


def _verdict_chat(client: ollama.Client) -> ollama.ChatResponse:
    return client.chat(model=MODEL, messages=MESSAGES, format=Verdict.model_json_schema())


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# -- structured chat -------------------------------------------------------


def test_sync_structured_chat_returns_scripted_json(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script("Verdict", {"ok": True, "reason": "naïve ünïcode kept"})

    resp = _verdict_chat(client)

    assert Verdict.model_validate_json(resp.message.content or "") == Verdict(ok=True, reason="naïve ünïcode kept")
    assert resp.message.role == "assistant"
    assert resp.done is True and resp.done_reason == "stop"
    assert resp.model == MODEL
    # The recorded request is exactly what the client put on the wire.
    (body,) = fake.calls("Verdict")
    assert body["stream"] is False
    assert body["format"]["title"] == "Verdict"
    assert body["messages"] == MESSAGES
    assert fake.titles() == ["Verdict"]
    assert fake.unscripted == [] and fake.errors == []


async def test_async_structured_chat_returns_scripted_json(fake: FakeOllama, aclient: ollama.AsyncClient) -> None:
    fake.script("Verdict", Verdict(ok=False, reason="pydantic objects work too"))

    resp = await aclient.chat(model=MODEL, messages=MESSAGES, format=Verdict.model_json_schema())

    verdict = Verdict.model_validate_json(resp.message.content or "")
    assert verdict.reason == "pydantic objects work too"


def test_a_model_instance_is_titled_by_its_class(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script(Verdict(ok=True, reason="first"), Verdict(ok=True, reason="second"))
    fake.default(Verdict(ok=False, reason="then"))

    reasons = [Verdict.model_validate_json(_verdict_chat(client).message.content or "").reason for _ in range(3)]

    assert reasons == ["first", "second", "then"]
    # Sent as the fields it was given, like the dict it replaces.
    assert _verdict_chat(client).message.content == '{"ok": false, "reason": "then"}'


def test_replies_of_another_schema_are_refused(fake: FakeOllama) -> None:
    class Other(BaseModel):
        x: int = 0

    with pytest.raises(TypeError, match="Other"):
        fake.script(Verdict(ok=True, reason="a"), Other())
    with pytest.raises(TypeError):
        fake.default("Verdict")  # type: ignore[call-overload]


def test_fifo_then_default_and_verbatim_strings(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script("Verdict", {"ok": True, "reason": "first"}, "{not json")
    fake.default("Verdict", {"ok": False, "reason": "default"})

    contents = [_verdict_chat(client).message.content for _ in range(4)]

    assert json.loads(contents[0] or "")["reason"] == "first"
    assert contents[1] == "{not json"  # garbage goes out untouched
    assert [json.loads(c or "")["reason"] for c in contents[2:]] == ["default", "default"]
    assert fake.pending() == {}


def test_callable_reply_sees_request_body(fake: FakeOllama, client: ollama.Client) -> None:
    fake.default("Verdict", lambda body: {"ok": True, "reason": body["messages"][-1]["content"]})

    resp = _verdict_chat(client)

    assert json.loads(resp.message.content or "")["reason"] == "How was my week?"


def test_untitled_formats_use_text_title(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script(TEXT_TITLE, "plain", {"a": 1})

    plain = client.chat(model=MODEL, messages=MESSAGES)
    as_json = client.chat(model=MODEL, messages=MESSAGES, format="json")

    assert plain.message.content == "plain"
    assert as_json.message.content == '{"a": 1}'
    assert fake.titles() == [TEXT_TITLE, TEXT_TITLE]


def test_bare_model_name_resolves_to_latest(fake: FakeOllama, client: ollama.Client) -> None:
    fake.default(TEXT_TITLE, "hi")

    resp = client.chat(model="nomic-embed-text", messages=MESSAGES)

    assert resp.message.content == "hi"


# -- streaming -------------------------------------------------------------


def test_sync_stream_reassembles_content(fake: FakeOllama, client: ollama.Client) -> None:
    payload = {"ok": True, "reason": "streamed in several pieces"}
    fake.default("Verdict", payload)

    parts = list(client.chat(model=MODEL, messages=MESSAGES, format=Verdict.model_json_schema(), stream=True))

    assert len(parts) > 2
    assert all(p.done is False for p in parts[:-1])
    assert parts[-1].done is True and parts[-1].message.content == ""
    assert json.loads("".join(p.message.content or "" for p in parts)) == payload
    assert fake.calls("Verdict")[0]["stream"] is True


async def test_async_stream_reassembles_content(fake: FakeOllama, aclient: ollama.AsyncClient) -> None:
    fake.default(TEXT_TITLE, "Your week: 3 runs, 21 km.")

    stream = await aclient.chat(model=MODEL, messages=MESSAGES, stream=True)
    text = "".join([part.message.content or "" async for part in stream])

    assert text == "Your week: 3 runs, 21 km."


# -- embeddings and tags ---------------------------------------------------


def test_embed_is_deterministic_normalized_and_similarity_aware(fake: FakeOllama, client: ollama.Client) -> None:
    texts = ["easy run in the park", "an easy park run", "quarterly tax invoice"]

    first = client.embed(model=EMBED_MODEL, input=texts).embeddings
    again = client.embed(model=EMBED_MODEL, input=texts[0]).embeddings

    vecs = [list(v) for v in first]
    assert len(vecs) == 3 and all(len(v) == 64 for v in vecs)
    assert list(again[0]) == vecs[0] == fake.embedding(texts[0])
    assert all(math.isclose(math.sqrt(_cosine(v, v)), 1.0) for v in vecs)
    assert _cosine(vecs[0], vecs[1]) > _cosine(vecs[0], vecs[2]) + 0.2


async def test_async_embed_custom_dim_and_dimensions_param() -> None:
    with FakeOllama(models=(EMBED_MODEL,), embed_dim=16) as fake:
        async with ollama.AsyncClient(host=fake.url) as client:
            full = await client.embed(model=EMBED_MODEL, input="tempo run")
            cut = await client.embed(model=EMBED_MODEL, input="tempo run", dimensions=8)

    assert len(full.embeddings[0]) == 16
    assert len(cut.embeddings[0]) == 8
    assert math.isclose(_cosine(list(cut.embeddings[0]), list(cut.embeddings[0])), 1.0)


def test_embed_can_be_scripted(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script(EMBED_TITLE, [[1.0, 0.0]], Fail(500, "embedder crashed"))

    assert [list(v) for v in client.embed(model=EMBED_MODEL, input="x").embeddings] == [[1.0, 0.0]]
    with pytest.raises(ollama.ResponseError) as err:
        client.embed(model=EMBED_MODEL, input="x")
    assert err.value.status_code == 500
    assert len(client.embed(model=EMBED_MODEL, input="x").embeddings[0]) == 64  # back to hashing


def test_tags_lists_configured_models(fake: FakeOllama, client: ollama.Client) -> None:
    fake.models.add("llama3.2:3b")

    listed = client.list()

    names = sorted(m.model or "" for m in listed.models)
    assert names == sorted([MODEL, EMBED_MODEL, "llama3.2:3b"])
    assert all(m.details is not None and m.details.format == "gguf" for m in listed.models)


# -- errors ----------------------------------------------------------------


def test_unknown_model_is_404_response_error(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script("Verdict", {"ok": True, "reason": "kept for later"})

    with pytest.raises(ollama.ResponseError) as chat_err:
        client.chat(model="nope:1b", messages=MESSAGES, format=Verdict.model_json_schema())
    with pytest.raises(ollama.ResponseError) as embed_err:
        client.embed(model="nope:1b", input="x")

    assert chat_err.value.status_code == 404 and embed_err.value.status_code == 404
    assert chat_err.value.error == 'model "nope:1b" not found, try pulling it first'
    assert fake.pending() == {"Verdict": 1}  # a 404 consumes no scripted reply


async def test_fail_is_response_error_with_status(fake: FakeOllama, aclient: ollama.AsyncClient) -> None:
    fake.script("Verdict", Fail(500, "CUDA out of memory"), Fail(503, "busy"))
    schema = Verdict.model_json_schema()

    with pytest.raises(ollama.ResponseError) as err:
        await aclient.chat(model=MODEL, messages=MESSAGES, format=schema)
    assert (err.value.status_code, err.value.error) == (500, "CUDA out of memory")

    # Streamed calls only raise once iterated.
    stream = await aclient.chat(model=MODEL, messages=MESSAGES, format=schema, stream=True)
    with pytest.raises(ollama.ResponseError) as stream_err:
        async for _ in stream:
            pass
    assert stream_err.value.status_code == 503


def test_unscripted_title_is_500_and_recorded(fake: FakeOllama, client: ollama.Client) -> None:
    with pytest.raises(ollama.ResponseError) as err:
        _verdict_chat(client)

    assert err.value.status_code == 500
    assert "no reply scripted for title Verdict" in err.value.error
    assert fake.unscripted == ["Verdict"]


def test_raising_callable_is_500_and_recorded(fake: FakeOllama, client: ollama.Client) -> None:
    fake.default("Verdict", lambda body: 1 / 0)

    with pytest.raises(ollama.ResponseError) as err:
        _verdict_chat(client)

    assert err.value.status_code == 500
    assert "ZeroDivisionError" in fake.errors[0]


def test_unknown_path_is_404_json(fake: FakeOllama) -> None:
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"{fake.url}/api/nope", timeout=2)

    assert err.value.code == 404
    assert "no route" in json.loads(err.value.read())["error"]


# -- server down, timeouts, concurrency -------------------------------------


async def test_stopped_server_refuses_connections_then_restarts(
    fake: FakeOllama, client: ollama.Client, aclient: ollama.AsyncClient
) -> None:
    fake.default(TEXT_TITLE, "up")
    sync_client, async_client = client, aclient
    # Warm keep-alive connections: stop() must cut those too.
    assert sync_client.chat(model=MODEL, messages=MESSAGES).message.content == "up"
    assert (await async_client.chat(model=MODEL, messages=MESSAGES)).message.content == "up"
    url = fake.url

    fake.stop()

    # ollama maps httpx.ConnectError to the builtin ConnectionError...
    with pytest.raises(ConnectionError):
        sync_client.chat(model=MODEL, messages=MESSAGES)
    with pytest.raises(ConnectionError):
        await async_client.chat(model=MODEL, messages=MESSAGES)
    # ...but not on the streaming path, where the raw httpx error escapes.
    with pytest.raises(httpx.ConnectError):
        list(sync_client.chat(model=MODEL, messages=MESSAGES, stream=True))

    fake.restart()
    assert fake.url == url
    assert sync_client.chat(model=MODEL, messages=MESSAGES).message.content == "up"


def test_delay_longer_than_client_timeout_raises_read_timeout(fake: FakeOllama) -> None:
    fake.script(TEXT_TITLE, Delay(0.5, "too late"), Delay(0.05, "in time"))

    with ollama.Client(host=fake.url, timeout=0.2) as client:
        with pytest.raises(httpx.ReadTimeout):  # not wrapped by ollama
            client.chat(model=MODEL, messages=MESSAGES)
        assert client.chat(model=MODEL, messages=MESSAGES).message.content == "in time"


async def test_hang_times_out_and_stop_does_not_wait_for_it(fake: FakeOllama, aclient: ollama.AsyncClient) -> None:
    fake.default(TEXT_TITLE, Hang())
    async with ollama.AsyncClient(host=fake.url, timeout=0.2) as client:
        with pytest.raises(httpx.TimeoutException):
            await client.chat(model=MODEL, messages=MESSAGES)

    pending = asyncio.create_task(aclient.chat(model=MODEL, messages=MESSAGES))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    fake.stop()
    assert time.monotonic() - started < 1.0
    # The hung request is cut off without a response, like a crashed server.
    with pytest.raises(httpx.RemoteProtocolError):
        await pending


async def test_concurrent_delayed_calls_do_not_serialize(fake: FakeOllama, aclient: ollama.AsyncClient) -> None:
    fake.delay_s = 0.2
    fake.default("Verdict", lambda body: {"ok": True, "reason": body["messages"][0]["content"]})

    started = time.monotonic()
    replies = await asyncio.gather(
        *(
            aclient.chat(
                model=MODEL,
                messages=[{"role": "user", "content": f"q{i}"}],
                format=Verdict.model_json_schema(),
            )
            for i in range(20)
        )
    )
    elapsed = time.monotonic() - started

    assert elapsed < 2.0, elapsed
    reasons = [json.loads(r.message.content or "")["reason"] for r in replies]
    assert reasons == [f"q{i}" for i in range(20)]
    assert len(fake.requests) == 20


def test_reset_clears_scripts_and_recordings(fake: FakeOllama, client: ollama.Client) -> None:
    fake.script("Verdict", {"ok": True, "reason": "x"})
    fake.default(TEXT_TITLE, "y")
    client.chat(model=MODEL, messages=MESSAGES)

    fake.reset()

    assert fake.requests == [] and fake.titles() == [] and fake.pending() == {}
    with pytest.raises(ollama.ResponseError):
        client.chat(model=MODEL, messages=MESSAGES)


def test_refuse_answers_every_chat_at_once_and_in_flight_is_counted() -> None:
    with FakeOllama(delay_s=0.05) as fake:
        fake.default("Verdict", {"ok": True, "reason": "fine"})
        client = ollama.Client(host=fake.url)

        def ask() -> None:
            client.chat(model=MODEL, messages=MESSAGES, format=Verdict.model_json_schema())

        threads = [asyncio.to_thread(ask) for _ in range(3)]

        async def all_at_once() -> None:
            await asyncio.gather(*threads)

        asyncio.run(all_at_once())
        assert (fake.in_flight, fake.max_in_flight, fake.chat_count()) == (0, 3, 3)
        fake.refuse = Fail(503, "server busy, please try again.  maximum pending requests exceeded")
        started = time.perf_counter()
        with pytest.raises(ollama.ResponseError) as caught:
            ask()
        assert caught.value.status_code == 503 and time.perf_counter() - started < 0.05  # no delay first
        fake.reset()
        assert (fake.max_in_flight, fake.chat_count()) == (0, 0)
