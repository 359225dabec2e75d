"""``python -m bot doctor`` — check that Ollama and the configured models can do Almanac's work.

One line per check, with the fix when it fails; exit code 0 when every check
passes, 1 when one fails, 2 when the settings cannot be read. The checks, in
order, and what each relies on:

* With ``DATABASE_URL``: the Postgres server answers, its version, and the schema's migrations
  applied against this release's.
* Ollama answers ``/api/version`` at ``OLLAMA_HOST`` (the rest is skipped when not); with a
  pool (``OLLAMA_HOSTS``) one line lists the hosts and their caps, and each host gets every check.
* With ``OPENAI_BASE_URL``: that server answers ``/v1/models``, serves ``OPENAI_MODEL``, and its
  context (set when it starts; ``num_ctx`` is not sent there) is reported (``bot/doctor_openai.py``).
* Each configured model (``OLLAMA_MODEL``, ``OLLAMA_AGENT_MODELS``, and
  ``EMBEDDING_MODEL`` with ``EMBEDDING_BACKEND=ollama``) is pulled: ``/api/show``
  answers for it, resolving names as Ollama does (``bge-m3`` is ``bge-m3:latest``).
* Each chat model keeps to a JSON schema: one tiny call sent exactly as the
  engine sends its calls (``format`` = a pydantic schema, temperature, seed,
  ``num_ctx``), and the reply must validate. Some Ollama builds drop ``format``
  for some models, or answer with a reasoning object: both are valid JSON that
  is not the schema.
* The context the model was given: ``/api/ps``'s ``context_length`` for the
  model just loaded by that call (the size actually granted) against
  ``OLLAMA_NUM_CTX``; where ``/api/ps`` has no such field (Ollama before mid-2025),
  the trained size from ``/api/show``'s ``<architecture>.context_length``,
  which Ollama cuts a bigger ``num_ctx`` down to.
* What a call costs here: the rates Ollama reports for the tiny call
  (``prompt_eval_count / prompt_eval_duration``, ``eval_count / eval_duration``)
  projected to a 2,500-token prompt and a 150-token answer; it fails when that
  is over ``OLLAMA_TIMEOUT_S``. A tiny prompt reads slower per token on a GPU
  than a long one, so the projection errs long.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import re
import textwrap
import time
import uuid
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace

import httpx
import ollama
from pydantic import BaseModel, Field, ValidationError

from bot.config import Settings, load_settings
from engine import public_url, storage_report
from engine.config import LLMConfig

PROMPT_TOKENS = 2_500
"""A typical call's prompt, for the projection (the Synthesizer's budget)."""
ANSWER_TOKENS = 150
"""A typical call's answer, for the projection."""
STRONG_MODEL = "qwen2.5:7b-instruct"
"""Suggested where a model does not keep to the schema."""
_REASONING_KEYS = {"reasoning", "reasoning_content", "thinking", "thought", "thoughts", "analysis"}


class DoctorProbe(BaseModel):
    """The tiny answer asked of every chat model: one log line, read into three fields."""

    exercise: str = Field(description="the exercise's name as written")
    sets: int = Field(description="how many sets")
    reps: int = Field(description="repetitions in each set")


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    passed: bool
    """Whether the check passed."""
    found: str
    """What was found, in a few words."""
    fix: str = ""
    """What to do about it, when it failed."""

    def line(self) -> str:
        mark = "ok  " if self.passed else "FAIL"
        return f"{mark}  {self.found}" + (f" — {self.fix}" if self.fix else "")


def run(args: argparse.Namespace) -> int:
    """Run every check, printing each line as soon as it is known; returns the exit code."""
    failed = 0
    for check in diagnose(load_settings()):
        failed += not check.passed
        print(check.line(), flush=True)  # the first call can take a minute while the model loads
    print("all checks passed" if not failed else f"{failed} check{'s' if failed > 1 else ''} failed")
    return 1 if failed else 0


def diagnose(settings: Settings) -> Iterator[Check]:
    """The checks, in order; those that need Ollama are skipped when it does not answer.

    With a pool (``OLLAMA_HOSTS``) a line lists its hosts and caps, then every host gets
    every check: a call may land on any of them, and a model pulled on one only is a
    failure the pool hides until that host is the only one up.
    """
    if settings.database_url is not None:  # SQLite needs no check beyond the data folder's, made at every start
        storage = asyncio.run(storage_report(settings.engine_config()))
        yield Check(storage.ok, storage.found, storage.fix)
    cfg = settings.engine_config().llm
    if not cfg.hosts:
        yield from _diagnose_host(settings, cfg)
    else:
        yield from _diagnose_pool(settings, cfg)
    if cfg.openai is not None:
        from bot import doctor_openai

        for line in doctor_openai.diagnose(cfg.openai, cfg):
            yield Check(*line)


def _diagnose_pool(settings: Settings, cfg: LLMConfig) -> Iterator[Check]:
    caps = ", ".join(f"{public_url(h.url)} (cap {h.concurrency or cfg.host_concurrency})" for h in cfg.hosts)
    per_model = f"; at most {cfg.model_concurrency} per model" if cfg.model_concurrency else ""
    yield Check(True, f"a pool of {len(cfg.hosts)} hosts: {caps}{per_model}")
    for host in cfg.hosts:
        checks = _diagnose_host(settings, cfg.model_copy(update={"host": host.url}))
        for n, check in enumerate(checks):
            # The first line names the host; the model lines after it say which host they are about.
            yield check if n == 0 else replace(check, found=f"{public_url(host.url)}: {check.found}")


def _diagnose_host(settings: Settings, cfg: LLMConfig) -> Iterator[Check]:
    version = yield from _version(cfg)
    if version is None:
        return
    roles: dict[str, list[str]] = {cfg.model: ["OLLAMA_MODEL"]}
    for agent, model in cfg.agent_models.items():
        roles.setdefault(model, []).append(agent)
    chat_models = list(roles)
    if settings.embedding_backend == "ollama":
        roles.setdefault(settings.embedding_model, []).append("EMBEDDING_MODEL")
    with ollama.Client(host=cfg.host, timeout=cfg.timeout_s) as client:
        for model, used_by in roles.items():
            show, pulled = _pulled(client, model, used_by, cfg)
            yield pulled
            if show is None or model not in chat_models:
                continue
            response, seconds, kept = _keeps_format(client, model, cfg, version)
            yield kept
            yield _context(client, model, show, cfg)
            if response is not None:
                yield _speed(model, response, seconds, cfg.timeout_s)


def _version(cfg: LLMConfig) -> Generator[Check, None, str | None]:
    """Yields the check's line; returns Ollama's version, or None when the rest cannot run."""
    # Plain httpx: the ollama client has no call for /api/version.
    host = public_url(cfg.host)
    fix = "start it (`ollama serve`), or set OLLAMA_HOST to where it runs"
    try:
        reply = httpx.get(f"{cfg.host}/api/version", timeout=min(cfg.timeout_s, 10.0))
        version = str(reply.json()["version"]) if reply.status_code == 200 else None
    except httpx.HTTPError as exc:
        yield Check(False, f"Ollama does not answer at {host} ({type(exc).__name__})", fix)
        return None
    except (ValueError, KeyError, TypeError):
        version = None
    if version is None:
        yield Check(
            False,
            f"{host} answers, but not as Ollama does (/api/version: HTTP {reply.status_code})",
            "set OLLAMA_HOST to Ollama's own address, e.g. http://localhost:11434",
        )
        return None
    numbers = re.match(r"(\d+)\.(\d+)\.(\d+)", version)
    release = tuple(int(n) for n in numbers.groups()) if numbers else (0, 0, 0)
    if (0, 0, 0) < release < (0, 5, 0):  # 0.0.0 is a build from source
        yield Check(
            False,
            f"Ollama {version} at {host} is too old for replies held to a JSON schema (0.5.0 added them)",
            "update Ollama",
        )
        return None
    yield Check(True, f"Ollama {version} answers at {host}")
    return version


def _trouble(exc: Exception, what: str, cfg: LLMConfig) -> Check:
    if isinstance(exc, httpx.TimeoutException):
        return Check(
            False,
            f"{what}: no answer within OLLAMA_TIMEOUT_S={cfg.timeout_s:g} s",
            "the model may still be loading: run the doctor again; if it stays, raise OLLAMA_TIMEOUT_S",
        )
    if isinstance(exc, ollama.ResponseError):
        return Check(
            False,
            f"{what}: Ollama answered HTTP {exc.status_code}: {str(exc.error)[:200]}",
            "see Ollama's log; a model too big for this machine's memory fails like this, so try a smaller one",
        )
    return Check(
        False,
        f"{what}: lost Ollama at {public_url(cfg.host)} ({type(exc).__name__})",
        "start it again (`ollama serve`) and run the doctor again",
    )


_CALL_ERRORS = (httpx.HTTPError, ollama.ResponseError, ConnectionError)


def _pulled(
    client: ollama.Client, model: str, used_by: list[str], cfg: LLMConfig
) -> tuple[ollama.ShowResponse | None, Check]:
    label = f"{model} ({', '.join(used_by)})"
    try:
        return client.show(model), Check(True, f"{label} is pulled")
    except ollama.ResponseError as exc:
        if exc.status_code != 404:
            return None, _trouble(exc, label, cfg)
        return None, Check(False, f"{label} is not pulled", f"run `ollama pull {model}` where Ollama runs")
    except _CALL_ERRORS as exc:
        return None, _trouble(exc, label, cfg)


def _keeps_format(
    client: ollama.Client, model: str, cfg: LLMConfig, version: str
) -> tuple[ollama.ChatResponse | None, float, Check]:
    messages = [
        # A fresh first line each run: a prompt Ollama still has cached would be read in no time
        # and make the read rate meaningless.
        {
            "role": "system",
            "content": f"Check {uuid.uuid4().hex[:8]}. Read the training-log line into the "
            "JSON schema given. Reply with the JSON object only.",
        },
        {"role": "user", "content": "Squat 100 kg 3x5"},
    ]
    started = time.perf_counter()
    try:
        response = client.chat(
            model=model,
            messages=messages,
            format=DoctorProbe.model_json_schema(),
            stream=False,
            # As engine/agents/llm.py sends them: the check is of the calls Almanac makes.
            options={"temperature": cfg.temperature, "seed": cfg.seed, "num_ctx": cfg.num_ctx},
        )
    except _CALL_ERRORS as exc:
        return None, 0.0, _trouble(exc, f"{model} structured reply", cfg)
    seconds = time.perf_counter() - started
    content = (response.message.content or "").strip()
    try:
        DoctorProbe.model_validate_json(content)
    except ValidationError as exc:
        what, fix = _not_the_schema(content, exc, version)
        return response, seconds, Check(False, f"{model} ignores format: {what}", fix)
    return response, seconds, Check(True, f"{model} answers in the JSON schema it is sent")


def _not_the_schema(content: str, exc: ValidationError, version: str) -> tuple[str, str]:
    """What came back instead of the schema, and the fix for it."""
    other = f"use another model for it (e.g. {STRONG_MODEL}, in OLLAMA_MODEL or OLLAMA_AGENT_MODELS)"
    fix = f"Ollama {version} did not hold this model to the schema: update Ollama; if that does not help, {other}"
    if not content:
        # Thinking models whose whole reply lands in `thinking` leave the content empty.
        return (
            "an empty reply (a thinking model may have put it all in its thinking)",
            f"use a model without thinking: {other}",
        )
    try:
        value = json.loads(content)
    except ValueError:
        return f"it answered in plain text ({textwrap.shorten(content, 60)!r})", fix
    if not isinstance(value, dict):
        return f"it answered a JSON {type(value).__name__}, not an object", fix
    keys = ", ".join(sorted(value)[:6]) or "no fields"
    fields = set(DoctorProbe.model_fields)
    if not fields & set(value) and _REASONING_KEYS & set(value):
        return (
            f"it sent a reasoning object ({keys}) instead of the answer",
            f"a bug of some Ollama builds (this is {version}): update Ollama, or {other}",
        )
    if not fields & set(value):
        return f"valid JSON without the schema's fields ({keys} instead of {', '.join(DoctorProbe.model_fields)})", fix
    err = exc.errors()[0]
    return f"valid JSON that breaks the schema ({'.'.join(map(str, err['loc']))}: {err['msg']})", fix


def _context(client: ollama.Client, model: str, show: ollama.ShowResponse, cfg: LLMConfig) -> Check:
    want = cfg.num_ctx
    info = show.modelinfo or {}
    trained = info.get(f"{info.get('general.architecture')}.context_length")
    trained = trained if isinstance(trained, int) else None
    try:
        running = client.ps().models
    except _CALL_ERRORS as exc:
        return _trouble(exc, f"{model} context", cfg)
    names = {model, f"{model}:latest"}
    granted = next((m.context_length for m in running if {m.model, m.name} & names), None)
    longer = f"use a model that holds {want:,} tokens (Almanac's prompts are sized to OLLAMA_NUM_CTX)"
    if granted is not None:
        found = f"{model} got {granted:,} tokens of context (OLLAMA_NUM_CTX={want}; from /api/ps)"
        if granted >= want:
            return Check(True, found)
        if trained is not None and trained < want:
            return Check(False, f"{found}: the model holds at most {trained:,}", longer)
        return Check(
            False,
            found,
            "Ollama did not get num_ctx: OLLAMA_HOST must be Ollama itself, not a proxy; "
            f"or set OLLAMA_CONTEXT_LENGTH={want} where Ollama runs",
        )
    if trained is None:
        return Check(
            True,
            f"{model}: this Ollama reports neither the context granted nor the model's size (update Ollama to see it)",
        )
    found = f"{model} holds up to {trained:,} tokens (OLLAMA_NUM_CTX={want}; /api/show: this Ollama does not report the context granted)"
    return Check(True, found) if trained >= want else Check(False, found, longer)


def _rate(count: int | None, nanoseconds: int | None) -> float | None:
    return count / (nanoseconds / 1e9) if count and nanoseconds else None


def _secs(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:,.0f} s"


def _speed(model: str, response: ollama.ChatResponse, seconds: float, timeout_s: float) -> Check:
    loading = (response.load_duration or 0) / 1e9
    took = f"{model}: one call took {_secs(seconds)}" + (f" ({_secs(loading)} of it loading)" if loading >= 0.5 else "")
    read = _rate(response.prompt_eval_count, response.prompt_eval_duration)
    write = _rate(response.eval_count, response.eval_duration)
    if read is None or write is None:
        return Check(True, f"{took}; Ollama reported no token rates to project from")
    projected = PROMPT_TOKENS / read + ANSWER_TOKENS / write
    found = (
        f"{took}; reads {read:,.0f} tokens/s, writes {write:,.0f} tokens/s: a {PROMPT_TOKENS:,}-token prompt "
        f"with a {ANSWER_TOKENS}-token answer takes about {_secs(projected)}"
    )
    if projected <= timeout_s:
        return Check(True, found)
    enough = math.ceil(projected * 1.5 / 10) * 10
    return Check(
        False,
        found,
        f"that is over OLLAMA_TIMEOUT_S={timeout_s:g}, so calls would time out: run Ollama "
        f"on a GPU or use a smaller model, or raise OLLAMA_TIMEOUT_S to {enough}",
    )
