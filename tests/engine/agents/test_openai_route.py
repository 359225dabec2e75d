"""The OpenAI-compatible route (OPENAI_BASE_URL) for the agents it names, against the fake's ``/v1`` route."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, SecretStr

from engine.agents.llm import LLM
from engine.config import LLMConfig, OpenAIRoute
from engine.errors import ModelFailed, ModelMissing, ModelTimeout, ModelUnreachable
from tests.fakes.ollama_server import Fail, FakeOllama, Hang

SERVED = "Qwen/Qwen2.5-7B-Instruct"


class PingOutput(BaseModel):
    answer: str
    count: int


def routed(fake: FakeOllama, served: FakeOllama, timeout_s: float = 5.0) -> LLM:
    served.models.add(SERVED)
    route = OpenAIRoute(base_url=f"{served.url}/v1", model=SERVED, api_key=SecretStr("k-123"))
    return LLM(LLMConfig(host=fake.url, openai=route, timeout_s=timeout_s, num_ctx=16384))


async def test_the_synthesizer_goes_to_the_openai_server_and_the_rest_to_ollama(fake: FakeOllama) -> None:
    with FakeOllama() as served:
        served.script("PingOutput", {"answer": "from vllm", "count": 2})
        fake.script("PingOutput", {"answer": "from ollama", "count": 1})
        llm = routed(fake, served)
        assert (await llm.structured("synthesizer", PingOutput, "sys", "user")).answer == "from vllm"
        assert (await llm.structured("router", PingOutput, "sys", "user")).answer == "from ollama"
        (sent,) = [r.body for r in served.requests]
        assert [r.path for r in served.requests] == ["/v1/chat/completions"]
        assert sent["model"] == SERVED and sent["stream"] is False
        assert (sent["temperature"], sent["seed"]) == (0.0, 42)
        assert sent["response_format"]["type"] == "json_schema"
        assert sent["response_format"]["json_schema"]["name"] == "PingOutput"
        assert sent["response_format"]["json_schema"]["schema"] == PingOutput.model_json_schema()
        assert "options" not in sent and "num_ctx" not in str(sent)  # no such field on this route
        assert [r.path for r in fake.requests] == ["/api/chat"]
        assert served.authorization == "Bearer k-123"
        await llm.aclose()


async def test_an_invalid_reply_is_reasked_on_the_same_route(fake: FakeOllama) -> None:
    with FakeOllama() as served:
        served.script("PingOutput", {"answer": "x"}, {"answer": "x", "count": 3})
        llm = routed(fake, served)
        assert (await llm.structured("synthesizer", PingOutput, "s", "u")).count == 3
        second = served.requests[1].body["messages"]
        assert second[-2]["role"] == "assistant" and "count" in second[-1]["content"]
        assert fake.requests == []
        await llm.aclose()


async def test_a_model_it_does_not_serve_is_model_missing(fake: FakeOllama) -> None:
    with FakeOllama() as served:
        llm = routed(fake, served)
        served.models.discard(SERVED)
        with pytest.raises(ModelMissing) as caught:
            await llm.structured("synthesizer", PingOutput, "s", "u")
        assert SERVED in caught.value.message and served.url in caught.value.message
        await llm.aclose()


async def test_failures_keep_their_kinds(fake: FakeOllama) -> None:
    with FakeOllama() as served:
        served.script("PingOutput", Fail(500, "CUDA out of memory"), Hang(5.0))
        llm = routed(fake, served, timeout_s=0.3)
        with pytest.raises(ModelFailed, match="CUDA out of memory"):
            await llm.structured("synthesizer", PingOutput, "s", "u")
        with pytest.raises(ModelTimeout):
            await llm.structured("synthesizer", PingOutput, "s", "u")
        served.stop()
        with pytest.raises(ModelUnreachable, match="OPENAI_BASE_URL") as caught:
            await llm.structured("synthesizer", PingOutput, "s", "u")
        assert served.url in caught.value.message
        await llm.aclose()
