"""The rules docker-compose.yml, the reference deployment, must keep (tests/deploy/test_compose.py runs them).

Each rule takes the parsed file and lists what is wrong with it (empty: nothing).
"""

from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

from bot.__main__ import _parser

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"

Doc = dict[str, Any]
Rule = Callable[[Doc], list[str]]

# `${NAME}`, `${NAME:-default}`, `${NAME:?message}` (Compose's interpolation); `$$` is a literal dollar.
REFERENCE = re.compile(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?:[:?+-][^}]*)?\}")
_BARE = re.compile(r"(?<!\$)\$[A-Za-z_]")
_SECRET_KEY = re.compile(r"TOKEN|SECRET|PASSWORD|API_KEY", re.IGNORECASE)
_ONLY_REFERENCE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+-][^}]*)?\}")
# What real credentials look like, should one be pasted in: Slack and Telegram tokens, a long hex run.
_CREDENTIAL = re.compile(r"xox[abp]-|xapp-|\b\d{6,}:[A-Za-z0-9_-]{30,}|\b[A-Fa-f0-9]{32,}\b")
REFERENCE_SERVICES = {"postgres", "chroma", "chroma-proxy", "ollama", "migrate", "telegram", "slack", "worker"}


def load() -> Doc:
    doc = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def _services(doc: Doc) -> dict[str, dict[str, Any]]:
    return dict(doc.get("services") or {})


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):  # the `- KEY=value` form
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {str(k): "" if v is None else str(v) for k, v in env.items()}


def _command(service: dict[str, Any]) -> list[str]:
    command = service.get("command") or []
    return shlex.split(command) if isinstance(command, str) else [str(part) for part in command]


def _bot_subcommand(service: dict[str, Any]) -> str | None:
    """``X`` of a ``python -m bot X`` command, else None."""
    command = _command(service)
    if len(command) >= 3 and command[0].startswith("python") and command[1:3] == ["-m", "bot"]:
        return command[3] if len(command) > 3 else ""
    return None


def _app_services(doc: Doc) -> dict[str, dict[str, Any]]:
    """The services built from this repository (Almanac's own processes)."""
    return {name: s for name, s in _services(doc).items() if "build" in s}


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def _documented() -> set[str]:
    """Keys of .env.example, set or commented out (``KEY=`` or ``# KEY=``)."""
    keys: set[str] = set()
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        key = line.lstrip("# ").split("=", 1)[0]
        if "=" in line and re.fullmatch(r"[A-Z][A-Z0-9_]*", key):
            keys.add(key)
    return keys


def _named_volumes(service: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for volume in service.get("volumes") or []:
        source, target = (volume["source"], volume["target"]) if isinstance(volume, dict) else volume.split(":")[:2]
        if not source.startswith((".", "/", "~")):
            out.append((source, target))
    return out


# --- the rules ------------------------------------------------------------------------------


def reference_services(doc: Doc) -> list[str]:
    missing = REFERENCE_SERVICES - set(_services(doc))
    return [f"no service {name}" for name in sorted(missing)]


def images_and_builds(doc: Doc) -> list[str]:
    problems: list[str] = []
    for name, service in _services(doc).items():
        image, build = service.get("image"), service.get("build")
        if (image is None) == (build is None):
            problems.append(f"{name}: needs an image or a build (one of them)")
        if image is not None and not re.fullmatch(r"[a-z0-9./_-]+:[A-Za-z0-9._-]+", str(image)):
            problems.append(f"{name}: image {image!r} is not name:tag")
        if build is not None:
            context = ROOT / (build.get("context", ".") if isinstance(build, dict) else build)
            dockerfile = context / (build.get("dockerfile", "Dockerfile") if isinstance(build, dict) else "Dockerfile")
            if not context.is_dir():
                problems.append(f"{name}: build context {context} does not exist")
            elif not dockerfile.is_file():
                problems.append(f"{name}: {dockerfile} does not exist")
            else:
                problems += [f"{name}: {p}" for p in _dockerfile_problems(dockerfile, context)]
        for volume in service.get("volumes") or []:
            source = volume["source"] if isinstance(volume, dict) else volume.split(":")[0]
            if source.startswith(".") and not (ROOT / source).exists():
                problems.append(f"{name}: mounts {source}, which does not exist")
    return problems


def _dockerfile_problems(dockerfile: Path, context: Path) -> list[str]:
    text = dockerfile.read_text(encoding="utf-8")
    problems: list[str] = []
    if not re.search(r"^FROM python:3\.11-slim\b", text, re.MULTILINE):
        problems.append(f"{dockerfile.name} is not FROM python:3.11-slim")
    if not re.search(r"^RUN pip install \.$", text, re.MULTILINE):
        problems.append(f"{dockerfile.name} does not pip install the project")
    for line in re.findall(r"^COPY (.+)$", text, re.MULTILINE):
        for source in line.split()[:-1]:
            if not (context / source).exists():
                problems.append(f"{dockerfile.name} copies {source}, which is not in the build context")
    return problems


def _subcommands() -> set[str]:
    parser = _parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name for action in actions for name in action.choices}


def bot_subcommands(doc: Doc) -> list[str]:
    known = _subcommands()
    problems: list[str] = []
    for name, service in _app_services(doc).items():
        sub = _bot_subcommand(service)
        if sub is None:
            problems.append(f"{name}: its command is not `python -m bot <subcommand>`: {_command(service)}")
        elif sub not in known:
            problems.append(f"{name}: `python -m bot {sub}` is no subcommand (known: {', '.join(sorted(known))})")
    for name, service in _services(doc).items():
        if name not in _app_services(doc) and _bot_subcommand(service) is not None:
            problems.append(f"{name}: runs python -m bot but is not built from this repository")
    return problems


def documented_variables(doc: Doc) -> list[str]:
    documented = _documented()
    problems: list[str] = []
    for text in _strings(doc):
        if _BARE.search(text):
            problems.append(f"write ${{NAME}}, not $NAME: {text!r}")
        problems += [f"${{{var}}} is not in .env.example" for var in REFERENCE.findall(text) if var not in documented]
    return problems


def chroma_behind_the_proxy(doc: Doc) -> list[str]:
    services, networks = _services(doc), dict(doc.get("networks") or {})
    chroma, proxy = services.get("chroma", {}), services.get("chroma-proxy", {})
    problems: list[str] = []
    if chroma.get("ports") or chroma.get("network_mode"):
        problems.append("chroma publishes a port or uses another network mode")
    chroma_nets = set(chroma.get("networks") or ["default"])
    for net in sorted(chroma_nets):
        if not (networks.get(net) or {}).get("internal"):
            problems.append(f"chroma is on {net}, which is not internal")
        others = {n for n, s in services.items() if net in (s.get("networks") or ["default"]) and n != "chroma"}
        if others - {"chroma-proxy"}:
            problems.append(f"{', '.join(sorted(others - {'chroma-proxy'}))} can reach chroma on {net}")
    if not chroma_nets & set(proxy.get("networks") or ["default"]):
        problems.append("chroma-proxy shares no network with chroma")
    for name, service in _app_services(doc).items():
        env = _environment(service)
        if env.get("CHROMA_HOST") != "chroma-proxy":
            problems.append(f"{name}: CHROMA_HOST is {env.get('CHROMA_HOST')!r}, not chroma-proxy")
        if not _ONLY_REFERENCE.fullmatch(env.get("CHROMA_TOKEN", "")):
            problems.append(f"{name}: CHROMA_TOKEN does not come from .env")
    if not _ONLY_REFERENCE.fullmatch(_environment(proxy).get("CHROMA_TOKEN", "")):
        problems.append("chroma-proxy: CHROMA_TOKEN does not come from .env")
    mounts = {str(v).split(":")[1] for v in proxy.get("volumes") or []}
    for needed in ("/etc/nginx/templates", "/docker-entrypoint.d/10-require-token.sh"):
        if needed not in mounts:
            problems.append(f"chroma-proxy does not mount {needed}")
    return problems


def start_after_migrate(doc: Doc) -> list[str]:
    services = _services(doc)
    problems: list[str] = []
    migrate = services.get("migrate", {})
    if _bot_subcommand(migrate) != "migrate":
        problems.append("migrate does not run python -m bot migrate")
    if (migrate.get("depends_on") or {}).get("postgres", {}).get("condition") != "service_healthy":
        problems.append("migrate does not wait for postgres to be healthy")
    if str(migrate.get("restart", "no")) != "no":
        problems.append("migrate is restarted: a one-shot must exit and stay down")
    for name, service in _app_services(doc).items():
        if name == "migrate":
            continue
        condition = (service.get("depends_on") or {}).get("migrate", {}).get("condition")
        if condition != "service_completed_successfully":
            problems.append(f"{name}: starts without waiting for migrate to complete successfully ({condition})")
    return problems


def postgres_healthcheck(doc: Doc) -> list[str]:
    postgres = _services(doc).get("postgres", {})
    test = postgres.get("healthcheck", {}).get("test") or []
    if "pg_isready" not in " ".join(test if isinstance(test, list) else [test]):
        return ["postgres has no pg_isready healthcheck"]
    if not re.fullmatch(r"postgres:15(\.\d+)?", str(postgres.get("image"))):
        return [f"postgres is {postgres.get('image')}, not postgres:15"]
    return []


def volumes_declared(doc: Doc) -> list[str]:
    declared = set(doc.get("volumes") or {})
    problems: list[str] = []
    used: set[str] = set()
    for name, service in _services(doc).items():
        for source, _target in _named_volumes(service):
            used.add(source)
            if source not in declared:
                problems.append(f"{name}: volume {source} is not declared")
    problems += [f"volume {v} is declared but no service uses it" for v in sorted(declared - used)]
    for name, path in (
        ("postgres", "/var/lib/postgresql/data"),
        ("chroma", "/data"),
        ("ollama", "/root/.ollama"),
    ):
        if path not in {t for _s, t in _named_volumes(_services(doc).get(name, {}))}:
            problems.append(f"{name}: {path} is on no named volume (lost with the container)")
    return problems


def replicas(doc: Doc) -> list[str]:
    services = _services(doc)
    problems: list[str] = []
    count = (services.get("worker", {}).get("deploy") or {}).get("replicas", 1)
    if count < 2:
        problems.append(f"worker: {count} replica(s), fewer than 2")
    if (services.get("telegram", {}).get("deploy") or {}).get("replicas", 1) != 1:
        problems.append("telegram polls: one replica")
    count = (services.get("slack", {}).get("deploy") or {}).get("replicas", 1)
    if count < 2:
        problems.append(f"slack: {count} replica(s), fewer than 2")
    if _environment(services.get("slack", {})).get("SLACK_MODE") != "http":
        problems.append("slack runs replicas without SLACK_MODE=http")
    return problems


def no_inline_secrets(doc: Doc) -> list[str]:
    problems: list[str] = []
    for name, service in _services(doc).items():
        for key, value in _environment(service).items():
            if _SECRET_KEY.search(key) and value and not _ONLY_REFERENCE.fullmatch(value):
                problems.append(f"{name}: {key} is written inline")
            password = re.match(r"[a-z+]+://[^:/@]+:([^@]*)@", value)
            if password and not _ONLY_REFERENCE.fullmatch(password.group(1)):
                problems.append(f"{name}: {key} has a password written inline")
    for text in _strings(doc):
        if _CREDENTIAL.search(REFERENCE.sub("", text)):
            problems.append(f"something like a credential is written inline: {text[:12]}…")
    return problems


RULES: dict[str, Rule] = {
    rule.__name__: rule
    for rule in (
        reference_services,
        images_and_builds,
        bot_subcommands,
        documented_variables,
        chroma_behind_the_proxy,
        start_after_migrate,
        postgres_healthcheck,
        volumes_declared,
        replicas,
        no_inline_secrets,
    )
}
