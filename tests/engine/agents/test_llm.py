"""The model client against a real HTTP fake: schema as format, re-asks, typed errors."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from engine.agents.llm import LLM
from engine.config import LLMConfig
from engine.errors import ModelFailed, ModelInvalid, ModelMissing, ModelTimeout, ModelUnreachable
from tests.fakes.ollama_server import Fail, FakeOllama, Hang


class PingOutput(BaseModel):
    answer: str
    count: int


def client(fake: FakeOllama, **kw: object) -> LLM:
    return LLM(LLMConfig(host=fake.url, **kw))  # type: ignore[arg-type]


async def test_structured_call_sends_schema_and_options(fake: FakeOllama) -> None:
    fake.script("PingOutput", {"answer": "pong", "count": 3})
    llm = client(fake, num_ctx=8192, seed=7, temperature=0.0)
    out = await llm.structured("router", PingOutput, "sys", "user")
    assert out == PingOutput(answer="pong", count=3)
    (body,) = fake.calls("PingOutput")
    assert body["format"]["title"] == "PingOutput"
    assert body["options"] == {"temperature": 0.0, "seed": 7, "num_ctx": 8192}
    assert body["model"] == "qwen2.5:7b-instruct"
    await llm.aclose()


async def test_invalid_reply_is_reasked_with_the_error(fake: FakeOllama) -> None:
    fake.script("PingOutput", {"answer": "pong"}, {"answer": "pong", "count": 1})
    llm = client(fake)
    out = await llm.structured("router", PingOutput, "sys", "user")
    assert out.count == 1
    second = fake.calls("PingOutput")[1]["messages"]
    assert second[-1]["role"] == "user" and "count" in second[-1]["content"]
    assert second[-2]["role"] == "assistant"
    await llm.aclose()


async def test_garbage_three_times_is_model_invalid(fake: FakeOllama) -> None:
    fake.script("PingOutput", "not json", "{", "[]")
    llm = client(fake, max_retries=2)
    with pytest.raises(ModelInvalid, match="/retry"):
        await llm.structured("router", PingOutput, "sys", "user")
    assert len(fake.calls("PingOutput")) == 3
    await llm.aclose()


async def test_unknown_model_is_model_missing(fake: FakeOllama) -> None:
    llm = client(fake, model="llama9:404b")
    with pytest.raises(ModelMissing, match="ollama pull llama9:404b"):
        await llm.structured("router", PingOutput, "sys", "user")
    await llm.aclose()


async def test_per_agent_model(fake: FakeOllama) -> None:
    fake.models.add("qwen2.5:14b-instruct")
    fake.script("PingOutput", {"answer": "a", "count": 1})
    llm = client(fake, agent_models={"parser": "qwen2.5:14b-instruct"})
    await llm.structured("parser", PingOutput, "s", "u")
    assert fake.calls("PingOutput")[0]["model"] == "qwen2.5:14b-instruct"
    await llm.aclose()


async def test_server_error_is_model_failed(fake: FakeOllama) -> None:
    fake.script("PingOutput", Fail(500, "out of memory"))
    llm = client(fake)
    with pytest.raises(ModelFailed, match="out of memory"):
        await llm.structured("router", PingOutput, "sys", "user")
    await llm.aclose()


async def test_server_down_is_model_unreachable(fake: FakeOllama) -> None:
    llm = client(fake)
    fake.stop()
    with pytest.raises(ModelUnreachable, match="ollama serve"):
        await llm.structured("router", PingOutput, "sys", "user")
    await llm.aclose()


async def test_slow_model_is_model_timeout(fake: FakeOllama) -> None:
    fake.script("PingOutput", Hang())
    llm = client(fake, timeout_s=0.3)
    with pytest.raises(ModelTimeout, match="OLLAMA_TIMEOUT_S"):
        await llm.structured("router", PingOutput, "sys", "user")
    await llm.aclose()
