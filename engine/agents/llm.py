"""Structured calls to the model through Ollama.

Every agent call sends its pydantic output model's JSON schema as ``format``
(Ollama constrains decoding to it; the schema's ``title`` is the class name,
which the test fake answers by), validates the reply, and re-asks a bounded
number of times with the validation error before giving up with a typed error.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, TypeVar

import httpx
import ollama
import structlog
from pydantic import BaseModel, ValidationError

from engine import texts
from engine.agents.openai_route import OpenAIClient
from engine.agents.pool import Pool
from engine.config import LLMConfig
from engine.errors import ModelFailed, ModelInvalid, ModelMissing, ModelTimeout, ModelUnreachable
from engine.language.text import public_url

T = TypeVar("T", bound=BaseModel)
log = structlog.get_logger("engine.llm")

_REASK = (
    "Your reply did not match the required JSON schema:\n{errors}\n"
    "Reply again with one JSON object that matches the schema exactly."
)


def _short_errors(exc: ValidationError) -> str:
    # The model needs where and what, not pydantic's URLs.
    lines = []
    for err in exc.errors()[:8]:
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        lines.append(f"- {where}: {err['msg']}")
    return "\n".join(lines)


class LLM:
    """The model, as the agents see it: typed questions in, typed answers out."""

    def __init__(self, config: LLMConfig) -> None:
        self._config = config
        self._client: ollama.AsyncClient | None = None
        self._slots: asyncio.Semaphore | None = None
        self._schemas: dict[type[BaseModel], dict[str, Any]] = {}
        # With two hosts or more (OLLAMA_HOSTS) calls go through the pool; one host: the client above, as ever.
        self._pool: Pool | None = None
        self._openai: OpenAIClient | None = None  # OPENAI_BASE_URL, for the agents it names

    @property
    def config(self) -> LLMConfig:
        return self._config

    def _get_client(self) -> ollama.AsyncClient:
        # Made on first use, inside the running loop: nothing connects at import
        # or construction time.
        if self._client is None:
            n = self._config.max_concurrency
            self._client = ollama.AsyncClient(
                host=self._config.host,
                timeout=self._config.timeout_s,
                limits=httpx.Limits(max_connections=n, max_keepalive_connections=n),
            )
            self._slots = asyncio.Semaphore(n)
        return self._client

    def _schema(self, output: type[BaseModel]) -> dict[str, Any]:
        schema = self._schemas.get(output)
        if schema is None:
            schema = output.model_json_schema()
            self._schemas[output] = schema
        return schema

    async def structured(
        self, agent: str, output: type[T], system: str, user: str, *, schema: dict[str, Any] | None = None
    ) -> T:
        """Ask one agent question and return its validated answer.

        Args:
            agent: the agent's name (picks the model; appears in logs).
            output: the pydantic model the answer must match; its name is the schema title.
            system: the agent's instructions.
            user: the inputs of this call.
            schema: a schema built for this call, sent instead of ``output``'s (the
                Synthesizer's ``enum`` of the ids offered this turn); the reply is still
                read with ``output``, leniently, and code checks the rest. Never cached.

        Raises:
            ModelUnreachable, ModelTimeout, ModelMissing, ModelFailed, ModelInvalid.
        """
        route = self._config.openai
        to_openai = route is not None and agent in route.agents
        model = route.model if route is not None and to_openai else self._config.model_for(agent)
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        attempts = 1 + self._config.max_retries
        last_error = ""
        for attempt in range(1, attempts + 1):
            started = time.perf_counter()
            sent = schema if schema is not None else self._schema(output)
            content = await (self._openai_chat(messages, sent) if to_openai else self._chat(model, messages, sent))
            try:
                result = output.model_validate_json(content)
            except ValidationError as exc:
                last_error = _short_errors(exc)
                log.warning("llm.invalid_reply", agent=agent, attempt=attempt, errors=last_error[:500])
                messages = [
                    *messages,
                    {"role": "assistant", "content": content[:4000]},
                    {"role": "user", "content": _REASK.format(errors=last_error)},
                ]
                continue
            log.debug(
                "llm.call",
                agent=agent,
                model=model,
                attempt=attempt,
                duration_ms=round((time.perf_counter() - started) * 1000, 1),
            )
            return result
        raise ModelInvalid(
            f"The language model ({model}) kept answering in a shape I can't use "
            f"({attempts} tries). Try again with /retry; if it keeps happening, "
            "run `python -m bot doctor` where Almanac runs: it says whether the model "
            "or Ollama ignores the schema, and what to change (often a stronger model: "
            "OLLAMA_MODEL, e.g. qwen2.5:7b-instruct or larger)."
        )

    async def _openai_chat(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        if self._openai is None:
            assert self._config.openai is not None
            self._openai = OpenAIClient(self._config, self._config.openai)
        return await self._openai.chat(messages, schema)

    async def _chat(self, model: str, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        cfg = self._config
        if len(cfg.hosts) > 1:
            if self._pool is None:
                self._pool = Pool(cfg)
            options = {"temperature": cfg.temperature, "seed": cfg.seed, "num_ctx": cfg.num_ctx}
            return await self._pool.chat(model, messages, schema, options)
        client = self._get_client()
        assert self._slots is not None
        try:
            async with self._slots:
                response = await client.chat(
                    model=model,
                    messages=messages,
                    format=schema,
                    stream=False,
                    options={"temperature": cfg.temperature, "seed": cfg.seed, "num_ctx": cfg.num_ctx},
                )
        except httpx.TimeoutException:
            raise ModelTimeout(texts.model_timeout(cfg.timeout_s)) from None
        except (httpx.ConnectError, ConnectionError, httpx.RemoteProtocolError):
            raise ModelUnreachable(texts.model_unreachable(public_url(cfg.host))) from None
        except ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise ModelMissing(texts.model_missing(model)) from None
            raise ModelFailed(texts.model_failed(exc.status_code, str(exc.error))) from None
        except httpx.HTTPError as exc:
            raise ModelUnreachable(texts.model_connection_failed(public_url(cfg.host), type(exc).__name__)) from None
        return response.message.content or ""

    @property
    def pool(self) -> Pool | None:
        """The pool of model servers, once a call has used it."""
        return self._pool

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        if self._pool is not None:
            await self._pool.aclose()
            self._pool = None
        if self._openai is not None:
            await self._openai.aclose()
            self._openai = None
        if self._client is not None:
            # ollama's AsyncClient keeps its httpx client as `_client`.
            inner = getattr(self._client, "_client", None)
            if isinstance(inner, httpx.AsyncClient):
                await inner.aclose()
            self._client = None
