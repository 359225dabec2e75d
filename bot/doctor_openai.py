"""``bot doctor``'s lines for an OpenAI-compatible server (``OPENAI_BASE_URL``): it answers, serves
``OPENAI_MODEL``, and holds the context Almanac's prompts are sized to.

``num_ctx`` is not sent on that route (the API has no such field), so the context is the one the
server was started with: vLLM reports it as ``max_model_len`` in ``/v1/models``; llama-server does
not there (its ``-c`` shows in ``/props``), and then the line says where to set it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import httpx

from engine import public_url
from engine.config import LLMConfig, OpenAIRoute


class Check(NamedTuple):
    """One line, as ``bot.doctor.Check`` takes it."""

    passed: bool
    found: str
    fix: str = ""


def diagnose(route: OpenAIRoute, cfg: LLMConfig) -> Iterator[Check]:
    """The server's lines, in order; the context line only when it answers."""
    url = public_url(route.base_url)
    headers = {"Authorization": f"Bearer {route.api_key.get_secret_value()}"} if route.api_key else None
    used_by = ", ".join(route.agents)
    try:
        reply = httpx.get(f"{route.base_url}/models", headers=headers, timeout=min(cfg.timeout_s, 10.0))
    except httpx.HTTPError as exc:
        yield Check(
            False,
            f"the OpenAI-compatible server does not answer at {url} ({type(exc).__name__})",
            "start it (vLLM, llama-server), or set OPENAI_BASE_URL to its address up to /v1",
        )
        return
    models: list[dict[str, Any]] = []
    try:
        data = reply.json().get("data") if reply.status_code == 200 else None
        models = [m for m in data or [] if isinstance(m, dict)]
    except (ValueError, AttributeError):
        pass
    if reply.status_code != 200 or not models:
        fix = (
            "set OPENAI_API_KEY to its --api-key" if reply.status_code in (401, 403) else "OPENAI_BASE_URL ends in /v1"
        )
        yield Check(False, f"{url}/models answers HTTP {reply.status_code} without a list of models", fix)
        return
    served = next((m for m in models if m.get("id") == route.model), None)
    if served is None:
        names = ", ".join(str(m.get("id")) for m in models[:5])
        yield Check(
            False,
            f"{url} does not serve {route.model} ({used_by}); it serves {names}",
            "set OPENAI_MODEL to the name it serves, or start it with that model",
        )
        return
    yield Check(True, f"{url} serves {route.model} ({used_by})")
    want = cfg.num_ctx
    start = f"(llama-server -c {want}, vLLM --max-model-len {want})"
    granted = served.get("max_model_len")
    if isinstance(granted, int):
        found = f"{route.model} at {url} holds {granted:,} tokens (OLLAMA_NUM_CTX={want} is not sent on this route)"
        if granted >= want:
            yield Check(True, found)
        else:
            yield Check(False, found, f"start the server with a context of at least {want} {start}")
        return
    yield Check(
        True,
        f"{route.model} at {url}: OLLAMA_NUM_CTX={want} is not sent on this route; the server's context is "
        f"set when it starts: give it at least {want} {start}",
    )
