"""The engine's settings, handed in by ``bot/config.py`` (the engine reads no environment)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, SecretStr

from engine.knowledge.config import KnowledgeConfig


class ModelHost(BaseModel):
    """One model server of a pool."""

    model_config = ConfigDict(frozen=True)

    url: str
    """Its base URL, e.g. ``http://b:11434`` (credentials allowed; they are masked wherever shown)."""
    concurrency: int | None = Field(default=None, ge=1, le=256)
    """Calls in flight on it at once; None: ``LLMConfig.host_concurrency``."""


class OpenAIRoute(BaseModel):
    """An OpenAI-compatible server (vLLM, llama.cpp's llama-server) for some agents' calls.

    ``num_ctx`` is not sent on this route (the OpenAI API has no such field): the server's
    context is set when it starts (llama.cpp ``-c``, vLLM ``--max-model-len``).
    """

    model_config = ConfigDict(frozen=True)

    base_url: str
    """Up to and including ``/v1``, e.g. ``http://vllm:8000/v1``."""
    model: str
    """The name the server serves the model under (vLLM ``--served-model-name``, llama.cpp ``-a``)."""
    api_key: SecretStr | None = None
    """Sent as a bearer token when the server was started with ``--api-key``."""
    agents: tuple[str, ...] = ("synthesizer",)
    """The agents whose calls go there: by default the one that writes answers."""


class LLMConfig(BaseModel):
    """How to reach and drive the model."""

    model_config = ConfigDict(frozen=True)

    host: str = "http://localhost:11434"
    model: str = "qwen2.5:7b-instruct"
    agent_models: dict[str, str] = Field(default_factory=dict)
    """Agent name (``router``, ``parser``, …) -> model, for agents that need a bigger one."""
    timeout_s: float = 120.0
    num_ctx: int = 8192
    """Context window; Ollama's default (2–4k) silently truncates our prompts."""
    max_retries: int = 2
    """Re-asks after an invalid reply, with the validation error shown to the model."""
    temperature: float = 0.0
    seed: int = 42
    max_concurrency: int = 8
    """Model calls in flight at once; Ollama runs only a few in parallel, and a big
    connection pool costs more CPU than it saves."""
    hosts: tuple[ModelHost, ...] = ()
    """A pool of model servers (engine/agents/pool.py); fewer than two: ``host`` alone, exactly as without a pool."""
    host_concurrency: int = Field(default=1, ge=1, le=256)
    """In a pool, calls in flight per host unless the host says otherwise: a CPU host serves one at a time best."""
    openai: OpenAIRoute | None = None
    """Set: the agents it names are asked there instead of Ollama."""
    model_concurrency: int | None = Field(default=None, ge=1, le=256)
    """In a pool, calls in flight per (host, model); None: only the host's cap. Some model architectures
    answer one request at a time per model even where the host runs several models at once."""

    def model_for(self, agent: str) -> str:
        """The model an agent runs on."""
        return self.agent_models.get(agent, self.model)


class EngineConfig(BaseModel):
    """Everything the engine needs to know from settings."""

    model_config = ConfigDict(frozen=True)

    data_dir: Path
    domains_dir: Path | None = None
    default_timezone: str = "UTC"
    max_message_chars: int = 4000
    history_turns: int = 6
    """Exchanges kept in a conversation's state for context; older ones are dropped."""
    max_answer_retries: int = 1
    """Re-writes of an answer that failed evaluation; at the limit it is returned marked partial."""
    read_in_code: bool = True
    """Code reads each message first (logs, questions, small talk) and the model fills only what it
    could not read. False sends every message through the Router, Parser and Planner, to compare."""
    plate_increment: dict[str, PositiveFloat] = Field(default_factory=dict)
    """Unit (``kg``, ``lb``) -> the smallest plate jump of this gym (1.25 kg with microplates), overriding every
    domain's ``[progression] increment`` for that unit: next-session targets and deload weights snap to it."""
    reminder_grace: timedelta = timedelta(hours=2)
    """A reminder due while the bot was down is sent late at start-up within this; older, it is listed as missed
    at the person's next ``/reminders`` instead."""
    database_url: SecretStr | None = None
    """``postgresql://…``: entries, turns, deliveries, reminders and the conversation threads in Postgres, shared by
    every process given the same URL; None keeps them in SQLite files under ``data_dir``."""
    llm: LLMConfig = Field(default_factory=LLMConfig)
    knowledge: KnowledgeConfig | None = None
    """The knowledge base answers draw on; None: answers from the person's data alone."""

    @property
    def database(self) -> str | None:
        """The Postgres URL, or None for the SQLite files."""
        return self.database_url.get_secret_value() if self.database_url else None

    @property
    def entries_db(self) -> Path:
        return self.data_dir / "almanac.db"

    @property
    def checkpoints_db(self) -> Path:
        return self.data_dir / "checkpoints.db"
