"""docker-compose.yml, the reference deployment, checked for structure (no Docker engine runs here).

Each rule (tests/deploy/compose_rules.py) lists what is wrong with a parsed compose
file. The real file must give no problem under any rule, and a copy of it broken
on purpose must give at least one under the rule meant to catch that break: so no
rule passes whatever the file says.
"""

from __future__ import annotations

import copy
import os
import re
import subprocess
from collections.abc import Callable
from typing import Any

import pytest

from tests.deploy.compose_rules import ENV_EXAMPLE, REFERENCE, ROOT, RULES, Doc, load

REQUIRE_TOKEN = ROOT / "deploy" / "chroma-proxy" / "10-require-token.sh"


@pytest.mark.parametrize("rule", RULES)
def test_the_reference_deployment_keeps_the_rule(rule: str) -> None:
    assert RULES[rule](load()) == []


# --- each rule catches what it is for -----------------------------------------------------------


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    """A break: the value at ``a.b.c`` becomes ``value`` (None deletes it)."""

    def apply(doc: Doc) -> None:
        *parents, last = path.split(".")
        node = doc
        for key in parents:
            node = node[key]
        if value is None:
            del node[last]
        else:
            node[last] = value

    return apply


def _edit_env(service: str, key: str, value: str) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        env = dict(doc["services"][service].get("environment") or {})
        env[key] = value
        doc["services"][service]["environment"] = env

    return apply


BREAKS: list[tuple[str, str, Callable[[Doc], None]]] = [
    ("reference_services", "no worker", _set("services.worker", None)),
    ("images_and_builds", "an image without a tag", _set("services.ollama.image", "ollama/ollama")),
    ("images_and_builds", "neither image nor build", _set("services.chroma.image", None)),
    ("images_and_builds", "a Dockerfile that is not there", _set("services.worker.build.dockerfile", "deploy/Nope")),
    ("images_and_builds", "a mount of a missing file", _set("services.chroma-proxy.volumes", ["./deploy/nope:/x:ro"])),
    ("bot_subcommands", "a subcommand bot lacks", _set("services.worker.command", ["python", "-m", "bot", "wrker"])),
    ("bot_subcommands", "an app service not running bot", _set("services.slack.command", ["sleep", "infinity"])),
    ("documented_variables", "an undocumented variable", _edit_env("worker", "X", "${NOT_DOCUMENTED_ANYWHERE}")),
    ("documented_variables", "a bare $NAME", _edit_env("worker", "X", "$OLLAMA_HOSTS")),
    ("chroma_behind_the_proxy", "chroma publishes its port", _set("services.chroma.ports", ["8000:8000"])),
    ("chroma_behind_the_proxy", "chroma on the shared network", _set("services.chroma.networks", ["backend"])),
    ("chroma_behind_the_proxy", "the internal network opened", _set("networks.chroma-internal.internal", False)),
    ("chroma_behind_the_proxy", "a worker on chroma's network", _set("services.worker.networks", ["chroma-internal"])),
    ("chroma_behind_the_proxy", "workers asking chroma itself", _edit_env("worker", "CHROMA_HOST", "chroma")),
    ("chroma_behind_the_proxy", "the proxy without its script", _set("services.chroma-proxy.volumes", [])),
    (
        "start_after_migrate",
        "a worker not waiting",
        _set("services.worker.depends_on.migrate.condition", "service_started"),
    ),
    ("start_after_migrate", "migrate not waiting", _set("services.migrate.depends_on", {})),
    ("start_after_migrate", "migrate restarted", _set("services.migrate.restart", "always")),
    ("postgres_healthcheck", "no healthcheck", _set("services.postgres.healthcheck", None)),
    ("postgres_healthcheck", "another Postgres", _set("services.postgres.image", "postgres:16")),
    ("volumes_declared", "an undeclared volume", _set("volumes.ollama-models", None)),
    ("volumes_declared", "postgres data in the container", _set("services.postgres.volumes", [])),
    ("replicas", "one worker", _set("services.worker.deploy.replicas", 1)),
    ("replicas", "two pollers", _set("services.telegram.deploy.replicas", 2)),
    ("replicas", "slack replicas in Socket Mode", _edit_env("slack", "SLACK_MODE", "socket")),
    ("replicas", "one Slack replica", _set("services.slack.deploy.replicas", 1)),
    ("no_inline_secrets", "a token inline", _edit_env("worker", "CHROMA_TOKEN", "let-me-in")),
    (
        "no_inline_secrets",
        "a password in a URL",
        _edit_env("worker", "DATABASE_URL", "postgresql://a:hunter2@postgres/a"),
    ),
    ("no_inline_secrets", "a Slack token under another name", _edit_env("slack", "NOTE", "xoxb-1234-5678-abcdef")),
]


@pytest.mark.parametrize(("rule", "what", "apply"), BREAKS, ids=[f"{r}: {w}" for r, w, _ in BREAKS])
def test_each_rule_catches_a_break(rule: str, what: str, apply: Callable[[Doc], None]) -> None:
    broken = copy.deepcopy(load())
    apply(broken)
    assert RULES[rule](broken), f"{rule} did not notice {what}"


def test_every_rule_has_a_break_it_catches() -> None:
    assert {rule for rule, _, _ in BREAKS} == set(RULES)


# --- the files beside it ------------------------------------------------------------------------


def test_the_new_settings_are_documented_with_a_comment() -> None:
    lines = ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
    for key in ("DATABASE_URL", "CHROMA_TOKEN", "POSTGRES_PASSWORD"):
        at = next(i for i, line in enumerate(lines) if line.lstrip("# ").startswith(f"{key}="))
        above = lines[at - 1]
        assert above.startswith("# ") and not re.match(r"# [A-Z_]+=", above), f"{key} has no comment above it"


def test_the_proxy_rule_compares_the_bearer_token_and_passes_on_to_chroma() -> None:
    template = (ROOT / "deploy" / "chroma-proxy" / "templates" / "default.conf.template").read_text()
    assert 'if ($http_authorization != "Bearer ${CHROMA_TOKEN}")' in template
    assert re.search(r"return 401 '\{\"error\":\"AuthError\"", template)
    assert "proxy_pass http://chroma:8000;" in template
    assert set(REFERENCE.findall(template)) == {"CHROMA_TOKEN"}  # envsubst must replace only this name


@pytest.mark.parametrize(
    ("token", "starts"),
    [
        (None, False),
        ("", False),
        ("short", False),
        ("a" * 31, False),
        ('a"b' + "c" * 40, False),
        ("ab$c" * 10, False),
        ("0123456789abcdef" * 4, True),
        ("Ab_-" * 8, True),
    ],
    ids=["unset", "empty", "short", "31 chars", "a quote", "a dollar", "hex 64", "32 chars"],
)
def test_the_proxy_refuses_to_start_without_a_usable_token(token: str | None, starts: bool) -> None:
    assert os.access(REQUIRE_TOKEN, os.X_OK)  # the nginx image runs only executable scripts
    env = {"PATH": os.environ["PATH"]} | ({} if token is None else {"CHROMA_TOKEN": token})
    done = subprocess.run(["sh", str(REQUIRE_TOKEN)], env=env, capture_output=True, text=True, timeout=10)
    assert (done.returncode == 0) is starts, done.stderr
    if token and len(token) > 8:
        assert token not in done.stderr  # never echoes the token
