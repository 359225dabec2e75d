"""Settings: the one place that reads the environment (and ``.env``).

Order, as in starlette's config: the process environment, then ``.env`` in the
working directory, then the defaults below. Everything else in Almanac gets
its settings as arguments.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Literal, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from engine import EngineConfig, LLMConfig


def _default_data_dir() -> Path:
    # XDG's data home, so a bot started from any directory finds the same data
    # and never litters the working directory.
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "almanac"


class Settings(BaseSettings):
    """Every setting Almanac has; ``.env.example`` lists them with their meaning."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    data_dir: Path = Field(default_factory=_default_data_dir)
    """Where the databases live."""
    domains_dir: Path | None = None
    """An extra folder of domain files (``*.toml``) loaded beside the built-in ones."""
    log_format: Literal["console", "json"] = "console"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    ollama_host: str = "http://localhost:11434"
    ollama_model: str = "qwen2.5:7b-instruct"
    ollama_agent_models: dict[str, str] = Field(default_factory=dict)
    """Per-agent model overrides, JSON: ``{"parser": "qwen2.5:14b-instruct"}``."""
    ollama_timeout_s: float = Field(default=120.0, gt=0)
    ollama_num_ctx: int = Field(default=8192, ge=2048)
    ollama_max_retries: int = Field(default=2, ge=0, le=5)
    ollama_temperature: float = Field(default=0.0, ge=0, le=2)
    ollama_seed: int = 42
    ollama_max_concurrency: int = Field(default=8, ge=1, le=256)

    default_timezone: str = "UTC"
    max_message_chars: int = Field(default=4000, ge=100)
    history_turns: int = Field(default=6, ge=0, le=50)
    max_answer_retries: int = Field(default=2, ge=0, le=5)

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

    @field_validator("allowed_users", mode="before")
    @classmethod
    def _comma_list(cls, v: object) -> object:
        if isinstance(v, str):
            return [p.strip() for p in v.split(",") if p.strip()]
        return v

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.telegram_webhook_url and self.telegram_webhook_secret is None:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        return self

    @field_validator(
        "telegram_bot_token",
        "slack_bot_token",
        "domains_dir",
        "telegram_webhook_url",
        "telegram_webhook_secret",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        # `KEY=` in .env (as in .env.example) means "not set", not "set to nothing".
        return None if isinstance(v, str) and not v.strip() else v

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

    def secrets(self) -> list[str]:
        """Secret values, so that logging can mask them wherever they appear."""
        return [
            s.get_secret_value()
            for s in (self.telegram_bot_token, self.telegram_webhook_secret, self.slack_bot_token)
            if s is not None and s.get_secret_value()
        ]

    def engine_config(self) -> EngineConfig:
        """The engine's part of the settings."""
        return EngineConfig(
            data_dir=self.data_dir,
            domains_dir=self.domains_dir,
            default_timezone=self.default_timezone,
            max_message_chars=self.max_message_chars,
            history_turns=self.history_turns,
            max_answer_retries=self.max_answer_retries,
            llm=LLMConfig(
                host=self.ollama_host,
                model=self.ollama_model,
                agent_models=self.ollama_agent_models,
                timeout_s=self.ollama_timeout_s,
                num_ctx=self.ollama_num_ctx,
                max_retries=self.ollama_max_retries,
                temperature=self.ollama_temperature,
                seed=self.ollama_seed,
                max_concurrency=self.ollama_max_concurrency,
            ),
        )


def fail(message: str) -> NoReturn:
    """Stop the process with one line and exit code 2 (bad configuration)."""
    print(f"almanac: {message}", file=sys.stderr)
    raise SystemExit(2)


def load_settings() -> Settings:
    """Read the settings, or stop with one line naming the bad key (exit code 2)."""
    try:
        return Settings()
    except ValidationError as exc:
        err = exc.errors()[0]
        if err["loc"]:
            # The message only, never the value: the key may hold a secret.
            fail(f"bad setting {str(err['loc'][0]).upper()}: {err['msg']}")
        fail(f"bad settings: {err['msg'].removeprefix('Value error, ')}")
