"""Structured calls to an OpenAI-compatible server (vLLM, llama.cpp's llama-server), over plain httpx.

The schema goes as ``response_format`` ``{"type": "json_schema", "json_schema": {"name", "schema"}}``,
the shape both vLLM and llama-server read (and OpenAI's own). ``temperature`` and ``seed`` are
sent as on the Ollama route; ``num_ctx`` is not: the API has no such field, and the server's
context is fixed when it starts (llama.cpp ``-c``, vLLM ``--max-model-len``). ``bot doctor`` says so.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from engine import texts
from engine.config import LLMConfig, OpenAIRoute
from engine.errors import ModelFailed, ModelMissing, ModelTimeout, ModelUnreachable
from engine.language.text import public_url


def _error_text(reply: httpx.Response) -> str:
    # vLLM and OpenAI: {"error": {"message": ...}}; llama.cpp the same; some proxies plain text.
    try:
        body = reply.json()
    except ValueError:
        return reply.text[:200]
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return str(error.get("message") or error)[:200]
    return str(error or body)[:200]


class OpenAIClient:
    """One OpenAI-compatible server; made on first use, inside the running loop."""

    def __init__(self, config: LLMConfig, route: OpenAIRoute) -> None:
        self._config = config
        self._route = route
        self._http: httpx.AsyncClient | None = None
        self._slots: asyncio.Semaphore | None = None

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            n = self._config.max_concurrency
            key = self._route.api_key
            self._http = httpx.AsyncClient(
                base_url=self._route.base_url.rstrip("/") + "/",
                timeout=self._config.timeout_s,
                limits=httpx.Limits(max_connections=n, max_keepalive_connections=n),
                headers={"Authorization": f"Bearer {key.get_secret_value()}"} if key is not None else None,
            )
            self._slots = asyncio.Semaphore(n)
        return self._http

    async def chat(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        """One chat held to ``schema``; returns the reply's content.

        Raises:
            ModelUnreachable, ModelTimeout, ModelMissing, ModelFailed.
        """
        cfg, route = self._config, self._route
        client = self._client()
        assert self._slots is not None
        body = {
            "model": route.model,
            "messages": messages,
            "temperature": cfg.temperature,
            "seed": cfg.seed,
            "stream": False,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": str(schema.get("title") or "answer"), "schema": schema},
            },
        }
        shown = public_url(route.base_url)
        try:
            async with self._slots:
                reply = await client.post("chat/completions", json=body)
        except httpx.TimeoutException:
            raise ModelTimeout(texts.model_timeout(cfg.timeout_s)) from None
        except httpx.HTTPError as exc:
            raise ModelUnreachable(texts.openai_unreachable(f"{shown} ({type(exc).__name__})")) from None
        if reply.status_code == 404:
            raise ModelMissing(texts.openai_model_missing(route.model, shown))
        if reply.status_code != 200:
            raise ModelFailed(texts.model_failed(reply.status_code, _error_text(reply)))
        try:
            content = reply.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise ModelFailed(texts.model_failed(reply.status_code, "a reply without choices[0].message")) from None
        return str(content or "")

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None
