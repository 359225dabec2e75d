"""Settings: the one place that reads the environment (and ``.env``).

Order, as in starlette's config: the process environment, then ``.env`` in the
working directory, then the defaults below. Everything else in Almanac gets
its settings as arguments.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

from bot import settings_checks as checks
from engine import EngineConfig, KnowledgeConfig, LLMConfig
from engine.config import ModelHost, OpenAIRoute


def _default_data_dir() -> Path:
    # XDG's data home, so a bot started from any directory finds the same data
    # and never litters the working directory.
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "almanac"


class Settings(BaseSettings):
    """Every setting Almanac has; ``.env.example`` lists them with their meaning."""

    model_config = SettingsConfigDict(
        # allow_inf_nan: OLLAMA_TIMEOUT_S=inf is no timeout anyone means.
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        allow_inf_nan=False,
    )

    data_dir: Path = Field(default_factory=_default_data_dir)
    """Where the databases live (with DATABASE_URL: only charts and the embedded knowledge base)."""
    worker_slots: int = Field(default=8, ge=1, le=256)
    """With DATABASE_URL: conversations one process runs at once (each holds a slot for its whole turn, model
    calls included, so with a slow model raise it with the model servers' capacity)."""
    database_url: SecretStr | None = None
    """``postgresql://user:password@host/db``: every process given it shares one database (entries, turns,
    deliveries, reminders, conversation threads); workers then claim turns per conversation. Unset: SQLite
    files under DATA_DIR, one process."""
    domains_dir: Path | None = None
    """An extra folder of domain files (``*.toml``) loaded beside the built-in ones."""
    log_format: Literal["console", "json"] = "console"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    ollama_host: str = "http://localhost:11434"
    ollama_model: str = "qwen2.5:7b-instruct"
    ollama_agent_models: Annotated[dict[str, str], NoDecode] = Field(default_factory=dict)
    """Per-agent model overrides, JSON: ``{"parser": "qwen2.5:14b-instruct"}``."""
    # Upper bounds catch a typo (an extra zero, a pasted id) before it reaches Ollama or a limit check.
    ollama_timeout_s: float = Field(default=120.0, gt=0, le=3600)
    """Seconds per model call; past an hour a call has hung."""
    ollama_num_ctx: int = Field(default=8192, ge=2048, le=1_048_576)
    """The model's context window in tokens; 1M is the longest any Ollama model offers."""
    ollama_max_retries: int = Field(default=2, ge=0, le=5)
    ollama_temperature: float = Field(default=0.0, ge=0, le=2)
    ollama_seed: int = Field(default=42, ge=0, le=2**31 - 1)
    """Fits every runner's seed type."""
    ollama_max_concurrency: int = Field(default=8, ge=1, le=256)
    ollama_hosts: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """A pool of model servers, comma-separated URLs, each optionally ``#N`` (its cap): ``http://a:11434,http://b:11434#4``.
    Empty or one URL: ``OLLAMA_HOST`` alone, as ever (one URL stands for it)."""
    ollama_host_concurrency: int = Field(default=1, ge=1, le=256)
    """In a pool, calls in flight per host without its own ``#N``."""
    ollama_model_concurrency: int | None = Field(default=None, ge=1, le=256)
    """In a pool, calls in flight per host and model; empty: only the host's cap."""

    openai_base_url: str | None = None
    """An OpenAI-compatible server (vLLM, llama-server) up to ``/v1``, for the agents in ``OPENAI_AGENTS``."""
    openai_model: str | None = None
    """The model name that server serves; required with ``OPENAI_BASE_URL``."""
    openai_api_key: SecretStr | None = None
    """Its ``--api-key``, sent as a bearer token; empty: none."""
    openai_agents: Annotated[list[str], NoDecode] = Field(default_factory=lambda: ["synthesizer"])
    """The agents asked there, comma-separated; the others stay on Ollama."""

    default_timezone: str = "UTC"
    max_message_chars: int = Field(default=4000, ge=100, le=40_000)
    """Longer messages are refused; 40,000 is Slack's own limit, the longest a platform delivers."""
    history_turns: int = Field(default=6, ge=0, le=50)
    max_answer_retries: int = Field(default=1, ge=0, le=5)
    read_in_code: bool = True
    """Code reads each message first and the model fills only what it could not read; false: the model reads all."""
    plate_increment_kg: float | None = Field(default=None, gt=0, le=25)
    """The smallest plate jump in kg (1.25 with microplates); empty: the domain file's (2.5)."""
    plate_increment_lb: float | None = Field(default=None, gt=0, le=50)
    """The smallest plate jump in lb; empty: the domain file's (5)."""
    reminder_grace_minutes: int = Field(default=120, ge=0, le=10_080)
    """A reminder due while the bot was down is sent late within this many minutes; older, it is listed as
    missed at the next /reminders. A week at most: past that a nudge is news nobody needs."""

    knowledge_enabled: bool = True
    """Answers draw on the knowledge base's articles (built-in ones ingested at the first start)."""
    embedding_backend: Literal["builtin", "ollama"] = "builtin"
    """``builtin``: the multilingual model inside the installed package (offline); ``ollama``: Ollama's embeddings."""
    embedding_model: str = "bge-m3"
    """The Ollama embedding model, with ``EMBEDDING_BACKEND=ollama``."""
    chroma_host: str | None = None
    """A Chroma server (``chroma run``) for the knowledge base; empty = the embedded one under ``DATA_DIR``."""
    chroma_port: int = Field(default=8000, ge=1, le=65535)
    chroma_token: SecretStr | None = None
    """Sent to the Chroma server as ``Authorization: Bearer …``: the token its proxy checks (``deploy/chroma-proxy/``)."""
    knowledge_top_k: int = Field(default=5, ge=1, le=50)
    context_expansion_enabled: bool = True
    context_expansion_depth: int = Field(default=1, ge=0, le=2)
    context_expansion_max_chunks: int = Field(default=30, ge=1, le=500)

    allowed_users: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """Who may use the bot: platform user ids (Telegram ids, Slack member ids), comma-separated; empty = everyone."""

    telegram_bot_token: SecretStr | None = None
    telegram_api_base_url: str = "https://api.telegram.org/bot"
    """Bot API base; point it at a local Bot API server (or a test server)."""
    telegram_webhook_url: str | None = None
    """Public HTTPS URL for webhook mode; empty = long polling."""
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    slack_bot_token: SecretStr | None = None
    """Bot User OAuth Token, ``xoxb-…``."""
    slack_app_token: SecretStr | None = None
    """App-level token with ``connections:write``, ``xapp-…``: Socket Mode."""
    slack_mode: Literal["socket", "http"] = "socket"
    """Socket Mode (no public URL) or HTTP mode (``/slack/events`` behind a public HTTPS URL)."""
    slack_signing_secret: SecretStr | None = None
    """HTTP mode: the app's signing secret; requests without a valid signature get 401."""
    slack_http_listen: str = "0.0.0.0"
    slack_http_port: int = Field(default=3000, ge=1, le=65535)
    slack_api_base_url: str = "https://slack.com/api/"
    """Web API base; point it at a local server (or a test server)."""
    slack_command: str = "/almanac"
    """The slash command's name, as in the app manifest."""
    slack_allowed_teams: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """Workspace ids (``T…``) allowed, comma-separated; empty = any workspace the app is installed in."""

    @field_validator("allowed_users", "slack_allowed_teams", "ollama_hosts", "openai_agents", mode="before")
    @classmethod
    def _comma_list(cls, v: object) -> object:
        return checks.comma_list(v)

    @field_validator("ollama_agent_models", mode="before")
    @classmethod
    def _agent_models(cls, v: object) -> object:
        # Parsed here, not by the settings source, so that bad JSON is one line naming the key.
        return checks.agent_models(v)

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.telegram_webhook_url and self.telegram_webhook_secret is None:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        return self

    @field_validator(
        "telegram_bot_token",
        "slack_bot_token",
        "slack_app_token",
        "slack_signing_secret",
        "domains_dir",
        "telegram_webhook_url",
        "telegram_webhook_secret",
        "plate_increment_kg",
        "plate_increment_lb",
        "ollama_model_concurrency",
        "openai_base_url",
        "openai_model",
        "openai_api_key",
        "chroma_token",
        "database_url",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        # `KEY=` in .env (as in .env.example) means "not set", not "set to nothing".
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("slack_bot_token", "slack_app_token")
    @classmethod
    def _slack_token_kind(cls, v: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        # A swapped token is the usual mistake; say so before Slack answers "invalid_auth".
        prefix = "xoxb-" if info.field_name == "slack_bot_token" else "xapp-"
        if v is not None and not v.get_secret_value().startswith(prefix):
            raise ValueError(f"must start with {prefix}")
        return v

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, v: SecretStr | None) -> SecretStr | None:
        if v is not None and not v.get_secret_value().startswith(("postgresql://", "postgres://")):
            raise ValueError("must be a postgresql:// URL (unset it to keep the SQLite files under DATA_DIR)")
        return v

    @model_validator(mode="after")
    def _openai_needs_model(self) -> Settings:
        if self.openai_base_url and not self.openai_model:
            raise ValueError("OPENAI_MODEL is required with OPENAI_BASE_URL (the model name that server serves)")
        return self

    @model_validator(mode="after")
    def _slack_http_needs_secret(self) -> Settings:
        if self.slack_mode == "http" and self.slack_signing_secret is None:
            raise ValueError("SLACK_SIGNING_SECRET is required with SLACK_MODE=http")
        return self

    @field_validator("data_dir", "domains_dir")
    @classmethod
    def _expand_home(cls, v: Path | None) -> Path | None:
        return v.expanduser() if v is not None else None

    @field_validator("default_timezone")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {v!r} (use an IANA name such as Asia/Seoul)") from None
        return v

    @field_validator("ollama_host")
    @classmethod
    def _http_url(cls, v: str) -> str:
        if not v.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return v.rstrip("/")

    @model_validator(mode="before")
    @classmethod
    def _tidy(cls, data: Any) -> Any:
        return checks.tidy(cls.model_fields, data)

    @field_validator("*")
    @classmethod
    def _check(cls, v: Any, info: ValidationInfo) -> Any:
        # Every key, also ones added later: see bot/settings_checks.py for what each must look like.
        return checks.check(info.field_name or "", v)

    def model_hosts(self) -> tuple[ModelHost, ...]:
        """``OLLAMA_HOSTS`` read into hosts (each URL's ``#N`` is its cap)."""
        return tuple(checks.model_host(item) for item in self.ollama_hosts)

    def embedding_host(self) -> str:
        """Where Ollama embeddings go: ``OLLAMA_HOST`` when set, else the pool's first host."""
        hosts = self.model_hosts()
        if hosts and "ollama_host" not in self.model_fields_set:
            return hosts[0].url
        return self.ollama_host

    def secrets(self) -> list[str]:
        """Secret values, so that logging can mask them wherever they appear (URL passwords included)."""
        database = self.database_url.get_secret_value() if self.database_url else ""
        urls = (self.ollama_host, self.chroma_host or "", self.openai_base_url or "", database, *self.ollama_hosts)
        passwords = [urlsplit(url).password for url in urls]
        return [p for p in passwords if p] + [
            s.get_secret_value()
            for s in (
                self.telegram_bot_token,
                self.telegram_webhook_secret,
                self.slack_bot_token,
                self.slack_app_token,
                self.slack_signing_secret,
                self.openai_api_key,
                self.chroma_token,
            )
            if s is not None and s.get_secret_value()
        ]

    @field_validator("chroma_host", mode="before")
    @classmethod
    def _empty_host_is_unset(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    def knowledge_config(self) -> KnowledgeConfig:
        """The knowledge base's part of the settings."""
        return KnowledgeConfig(
            data_dir=self.data_dir,
            chroma_host=self.chroma_host,
            chroma_port=self.chroma_port,
            chroma_token=self.chroma_token,
            embedding_backend=self.embedding_backend,
            embedding_model=self.embedding_model,
            ollama_host=self.embedding_host(),
            ollama_timeout_s=self.ollama_timeout_s,
            top_k=self.knowledge_top_k,
            expansion_enabled=self.context_expansion_enabled,
            expansion_depth=self.context_expansion_depth,
            expansion_max_chunks=self.context_expansion_max_chunks,
        )

    def engine_config(self) -> EngineConfig:
        """The engine's part of the settings."""
        return EngineConfig(
            data_dir=self.data_dir,
            domains_dir=self.domains_dir,
            default_timezone=self.default_timezone,
            max_message_chars=self.max_message_chars,
            history_turns=self.history_turns,
            max_answer_retries=self.max_answer_retries,
            read_in_code=self.read_in_code,
            plate_increment={
                unit: step
                for unit, step in (("kg", self.plate_increment_kg), ("lb", self.plate_increment_lb))
                if step is not None
            },
            reminder_grace=timedelta(minutes=self.reminder_grace_minutes),
            database_url=self.database_url,
            knowledge=self.knowledge_config() if self.knowledge_enabled else None,
            llm=self._llm_config(),
        )

    def _llm_config(self) -> LLMConfig:
        hosts = self.model_hosts()
        # One host is the single-server path exactly: its `#N` is then the one cap there is.
        concurrency = hosts[0].concurrency if len(hosts) == 1 and hosts[0].concurrency else self.ollama_max_concurrency
        return LLMConfig(
            host=hosts[0].url if hosts else self.ollama_host,
            model=self.ollama_model,
            agent_models=self.ollama_agent_models,
            timeout_s=self.ollama_timeout_s,
            num_ctx=self.ollama_num_ctx,
            max_retries=self.ollama_max_retries,
            temperature=self.ollama_temperature,
            seed=self.ollama_seed,
            max_concurrency=concurrency,
            hosts=hosts if len(hosts) > 1 else (),
            host_concurrency=self.ollama_host_concurrency,
            model_concurrency=self.ollama_model_concurrency,
            openai=self._openai_route(),
        )

    def _openai_route(self) -> OpenAIRoute | None:
        if not (self.openai_base_url and self.openai_model):
            return None
        return OpenAIRoute(
            base_url=self.openai_base_url.rstrip("/"),
            model=self.openai_model,
            api_key=self.openai_api_key,
            agents=tuple(self.openai_agents),
        )


def fail(message: str) -> NoReturn:
    """Stop the process with one line and exit code 2 (bad configuration)."""
    print(f"almanac: {message}", file=sys.stderr)
    raise SystemExit(2)


def load_settings() -> Settings:
    """Read the settings, or stop with one line naming the bad key (exit code 2).

    Keys in ``.env`` that name no setting are warned about on stderr, one line each;
    a ``.env`` that is a folder or not UTF-8 stops the process (one line, exit code 2).
    """
    env_file = Path(str(Settings.model_config.get("env_file") or ".env"))
    problem = checks.env_file_problem(env_file)
    if problem is not None:
        fail(problem)
    for warning in checks.unknown_keys(env_file, set(Settings.model_fields)):
        print(f"almanac: warning: {warning}", file=sys.stderr)
    try:
        return Settings()
    except SettingsError as exc:  # a value the settings source itself could not read
        fail(f"bad settings: {str(exc).splitlines()[0]}")
    except ValidationError as exc:
        err = exc.errors()[0]
        message = err["msg"].removeprefix("Value error, ")
        if err["loc"]:
            # The message only, never the value: the key may hold a secret.
            fail(f"bad setting {str(err['loc'][0]).upper()}: {message}")
        fail(f"bad settings: {message}")
