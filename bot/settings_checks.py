"""What a good value of each setting looks like, checked when the settings are read.

``bot.config.Settings`` calls :func:`tidy` on the raw values (case-insensitive
choices, surrounding spaces) and :func:`check` on every field once pydantic
has typed it. A check raises ``ValueError`` with a short reason; the loader
turns it into one line naming the key (exit code 2). Checks go by the field's
name where a name says what the value is (``*_url``, ``*_listen``,
``*_model``), so keys added later are covered without a line here.
:func:`unknown_keys` names keys in ``.env`` that are no setting (a typo
leaves its setting at the default without a word otherwise);
:func:`env_file_problem` says why a ``.env`` cannot be read at all.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
import tempfile
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin
from urllib.parse import urlsplit

from pydantic import SecretStr
from pydantic.fields import FieldInfo

from engine import public_url
from engine.config import ModelHost

_HOSTNAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)
_TELEGRAM_ID = re.compile(r"(?:tg:)?-?\d{1,20}")
_SLACK_MEMBER = re.compile(r"(?:slack:(?:[TE][A-Z0-9]{2,}:)?)?[UW][A-Z0-9]{2,}")
_SLACK_TEAM = re.compile(r"[TE][A-Z0-9]{2,}")
_TELEGRAM_TOKEN = re.compile(r"\d{1,20}:[A-Za-z0-9_-]{20,}")
# Telegram's secret_token: 1-256 characters, only A-Z, a-z, 0-9, _ and -.
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_MODEL_NAME = re.compile(r"[^\s]+")


def _choices(annotation: Any) -> tuple[str, ...]:
    """The string choices of a ``Literal`` annotation (also inside ``X | None``), else nothing."""
    if get_origin(annotation) is Literal:
        return tuple(a for a in get_args(annotation) if isinstance(a, str))
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return tuple(c for arg in get_args(annotation) for c in _choices(arg))
    return ()


def tidy(fields: Mapping[str, FieldInfo], data: Any) -> Any:
    """Raw values made comparable: surrounding spaces dropped, choices matched in any case (``debug`` → ``DEBUG``)."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for name, value in data.items():
        info = fields.get(name)
        if info is None or not isinstance(value, str):
            continue
        value = value.strip()
        if not value and info.annotation is Path:
            out[name] = None  # an empty path would quietly mean the working directory
            continue
        choices = _choices(info.annotation)
        match = next((c for c in choices if c.casefold() == value.casefold()), None)
        out[name] = match if match is not None else value
    return out


def _url(value: str, *, https_only: bool = False) -> None:
    parts = urlsplit(value)
    schemes = ("https",) if https_only else ("http", "https")
    if parts.scheme not in schemes:
        raise ValueError("must start with https://" if https_only else "must start with http:// or https://")
    if not parts.hostname:
        raise ValueError("has no host name")
    _listen(parts.hostname)


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _listen(value: str) -> None:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        if not _HOSTNAME.fullmatch(value):
            raise ValueError("must be an IP address (0.0.0.0, 127.0.0.1, ::) or a host name") from None


def writable_dir(path: Path) -> None:
    """Raise unless ``path`` is, or can become, a folder Almanac can write in.

    The nearest folder that exists is tried with a temporary file (deleted at
    once): permission bits say little to root, and ``/sys`` or a read-only
    mount refuse writes whatever they say.
    """
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"{probe} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        raise ValueError(f"cannot write in {probe} ({exc.strerror or exc})") from None


def agent_models(value: object) -> dict[str, str]:
    """``OLLAMA_AGENT_MODELS`` as written (JSON text) or as given (a dict): agent -> model."""
    if isinstance(value, str):
        text = value.strip() or "{}"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f'is not JSON ({exc.msg} at character {exc.pos}); write e.g. {{"parser": "qwen2.5:14b-instruct"}}'
            ) from None
    if not isinstance(value, dict):
        raise ValueError('must be a JSON object, e.g. {"parser": "qwen2.5:14b-instruct"}')
    if not value:
        return {}
    from engine import AGENTS  # the engine's agents, loaded only when a model is given to one

    for agent, model in value.items():
        if agent not in AGENTS:
            close = difflib.get_close_matches(str(agent), AGENTS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else f" (agents: {', '.join(sorted(AGENTS))})"
            raise ValueError(f"names no agent {agent!r}{hint}")
        if not isinstance(model, str) or not _MODEL_NAME.fullmatch(model.strip()):
            raise ValueError(f"gives {agent} no model name")
    return {str(a): str(m).strip() for a, m in value.items()}


def model_host(item: str) -> ModelHost:
    """One ``OLLAMA_HOSTS`` item: a URL, then optionally ``#N``, the calls it takes at once.

    ``#`` starts a URL's fragment, which is never sent to a server, so it cannot clash with a real address.
    """
    url, sep, cap = item.strip().partition("#")
    _url(url)
    url = url.rstrip("/")
    if not sep:
        return ModelHost(url=url)
    if not re.fullmatch(r"\d{1,3}", cap.strip()) or not 1 <= int(cap) <= 256:
        raise ValueError(f"{public_url(url)}#{cap[:10]}: after # comes the calls it takes at once, 1 to 256")
    return ModelHost(url=url, concurrency=int(cap))


def comma_list(value: object) -> object:
    """``a, b,c`` → ``["a", "b", "c"]``; an empty item (``a, ,b``) is kept so that the check can name it."""
    if isinstance(value, str):
        return [] if not value.strip() else [p.strip() for p in value.split(",")]
    return value


def check(name: str, value: Any) -> Any:
    """Check one typed value; return it (possibly normalized) or raise ``ValueError`` with the reason."""
    if isinstance(value, str) and not value.strip():
        raise ValueError("must not be empty (leave the key out for its default)")
    if isinstance(value, SecretStr):
        return _secret(name, value)
    if isinstance(value, list):
        return _ids(name, value)
    if value is None or not isinstance(value, (str, Path)):
        return value
    if name == "data_dir":
        writable_dir(Path(value))
    elif name == "domains_dir" and not Path(value).is_dir():
        raise ValueError(f"{value} is not a folder" if Path(value).exists() else f"{value} does not exist")
    elif name == "telegram_webhook_url":
        # Telegram delivers to HTTPS only; plain http is left for a loopback address (a local Bot API server, a test).
        _url(str(value), https_only=not _loopback(str(value)))
    elif name.endswith(("_url", "_host")) and name != "chroma_host":
        _url(str(value))
    elif name == "chroma_host":
        text = str(value)
        _url(text if "://" in text else f"http://{text}")  # a host name, or a URL with the scheme
    elif name.endswith("_listen"):
        _listen(str(value))
    elif name.endswith("_model") and not _MODEL_NAME.fullmatch(str(value)):
        raise ValueError("must be a model name without spaces, e.g. qwen2.5:7b-instruct")
    elif name.endswith("_command") and not re.fullmatch(r"/[\w-]+", str(value)):
        raise ValueError("must be a slash command such as /almanac")
    return value


def _secret(name: str, value: SecretStr) -> SecretStr:
    secret = value.get_secret_value()
    # The reasons never repeat the value: it is a secret.
    if name == "telegram_bot_token" and not _TELEGRAM_TOKEN.fullmatch(secret):
        raise ValueError("is not a bot token (@BotFather gives one like 123456789:AA…)")
    if name == "telegram_webhook_secret" and not _WEBHOOK_SECRET.fullmatch(secret):
        raise ValueError("may hold only A-Z, a-z, 0-9, _ and - (at most 256 characters), as Telegram requires")
    if any(ch.isspace() for ch in secret):
        raise ValueError("must not contain spaces")
    return value


def _ids(name: str, items: list[Any]) -> list[Any]:
    for n, item in enumerate(items, 1):
        text = str(item).strip()
        if not text:
            raise ValueError(f"item {n} is empty (a stray comma?)")
        if name == "allowed_users" and not (_TELEGRAM_ID.fullmatch(text) or _SLACK_MEMBER.fullmatch(text)):
            raise ValueError(f"item {n} {text!r} is no Telegram user id (digits) or Slack member id (U…)")
        if name == "slack_allowed_teams" and not _SLACK_TEAM.fullmatch(text):
            raise ValueError(f"item {n} {text!r} is no Slack workspace id (T…)")
        if name == "openai_agents":
            from engine import AGENTS  # the engine's agents, loaded only when this key is read

            if text not in AGENTS:
                close = difflib.get_close_matches(text, AGENTS, n=1)
                hint = f" (did you mean {close[0]}?)" if close else f" (agents: {', '.join(sorted(AGENTS))})"
                raise ValueError(f"item {n} names no agent {text!r}{hint}")
        if name == "ollama_hosts":
            try:
                model_host(text)
            except ValueError as exc:  # the reason only: a URL may hold a password
                raise ValueError(f"item {n}: {exc}") from None
    return items


def env_file_problem(env_file: Path) -> str | None:
    """Why ``env_file`` cannot be read as settings, or None when it can (or is not there).

    pydantic-settings skips a ``.env`` that is a folder without a word and stops
    with a traceback at one that is not UTF-8 (a Windows editor's "ANSI", such
    as CP949); either way the settings the person wrote would not be the ones used.
    """
    if env_file.is_dir():
        return f"{env_file} is a folder, not a file; rename or remove it (settings go in a file named .env)"
    if not env_file.is_file():
        return None  # not there, or a pipe: reading it here would leave nothing for the settings source
    try:
        raw = env_file.read_bytes()
    except OSError as exc:
        return f"cannot read {env_file} ({exc.strerror or exc})"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return f"{env_file} is not UTF-8 text (line {line}); save it as UTF-8 and start again"
    return None


def unknown_keys(env_file: Path, known: set[str]) -> list[str]:
    """Warnings for keys in ``env_file`` that name no setting, with the setting meant if one is close."""
    try:
        # utf-8-sig: a byte-order mark (Notepad's "UTF-8 with BOM") is no part of the first key;
        # the settings source drops it too.
        lines = env_file.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    warnings: list[str] = []
    upper = {k.upper() for k in known}
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key = line.removeprefix("export ").split("=", 1)[0].strip()
        if key.upper() in upper:
            continue
        close = difflib.get_close_matches(key.upper(), upper, n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]}?" if close else ""
        warnings.append(f"{env_file.name} sets {key}, which is no setting (ignored){hint}")
    return warnings
