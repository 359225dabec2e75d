"""Settings: one reader, bad values stop the process with one line and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "TELEGRAM_", "SLACK_", "LOG_"))}
    clean.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "xdg"), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env there
        env={**clean, "PYTHONPATH": str(ROOT)},
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("OLLAMA_TIMEOUT_S", "abc"),
        ("LOG_FORMAT", "xml"),
        ("DEFAULT_TIMEZONE", "Mars/Olympus"),
        ("OLLAMA_HOST", "localhost:11434"),
        ("MAX_MESSAGE_CHARS", "-1"),
    ],
)
def test_bad_setting_exits_2_with_one_line(tmp_path: Path, key: str, value: str) -> None:
    result = run_bot(tmp_path, "console", **{key: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert key in lines[0] and "Traceback" not in result.stderr


def test_unwritable_data_dir_is_a_clear_startup_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run_bot(tmp_path, "console", DATA_DIR=str(blocker / "data"))
    assert result.returncode == 2
    assert "DATA_DIR" in result.stderr and "Traceback" not in result.stderr


def test_a_telegram_bot_api_out_of_reach_stops_start_up_with_one_line_without_the_token(tmp_path: Path) -> None:
    # A closed port on loopback: the bot process never looks past this machine (it once asked DNS for
    # api.telegram.org here, which the in-process loopback guard cannot see in a child process).
    result = run_bot(tmp_path, TELEGRAM_BOT_TOKEN="123456:" + "A" * 35, TELEGRAM_API_BASE_URL="http://127.0.0.1:9/bot")
    assert result.returncode == 2
    assert "cannot reach the Telegram Bot API at http://127.0.0.1:9/bot" in result.stderr
    assert "A" * 35 not in result.stderr


def test_console_starts_and_quits_on_end_of_input(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "console", DATA_DIR=str(tmp_path / "d"))
    assert result.returncode == 0, result.stderr
    assert "Almanac" in result.stdout and "bye" in result.stdout
    assert (tmp_path / "d" / "almanac.db").exists()


def test_defaults_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("OLLAMA_AGENT_MODELS", '{"parser": "qwen2.5:14b-instruct"}')
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "")
    s = load_settings()
    assert s.data_dir == tmp_path / "xdg" / "almanac"
    assert s.telegram_bot_token is None
    cfg = s.engine_config()
    assert cfg.llm.model_for("parser") == "qwen2.5:14b-instruct"
    assert cfg.llm.model_for("router") == "qwen2.5:7b-instruct"
    assert cfg.plate_increment == {}  # the domain file's


def test_plate_increments_reach_the_engine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PLATE_INCREMENT_KG", "1.25")
    monkeypatch.setenv("PLATE_INCREMENT_LB", "")
    assert load_settings().engine_config().plate_increment == {"kg": 1.25}


def test_env_example_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    keys = {line.lstrip("# ").split("=", 1)[0] for line in example.splitlines() if "=" in line}
    for field in Settings.model_fields:
        assert field.upper() in keys, f"{field.upper()} missing from .env.example"


# --- every key, every bad value (issue 11) -------------------------------------------

import re  # noqa: E402
import types  # noqa: E402
import typing  # noqa: E402

from pydantic import SecretStr  # noqa: E402
from pydantic.fields import FieldInfo  # noqa: E402

from bot import settings_checks  # noqa: E402
from engine.agents import AGENTS  # noqa: E402

_PREFIXES = ("OLLAMA_", "TELEGRAM_", "SLACK_", "LOG_", "EMBEDDING_", "CHROMA_", "CONTEXT_", "KNOWLEDGE_")


def _base(annotation: object) -> object:
    """``X`` of ``X | None`` (and of ``Annotated[X, …]``, which pydantic already unwrapped)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def _bounds(info: FieldInfo) -> list[str]:
    out: list[str] = []
    for rule in info.metadata:
        for attr, step in (("ge", -1), ("gt", 0), ("le", 1), ("lt", 0)):
            value = getattr(rule, attr, None)
            if value is not None:
                out.append(str(value + step))
    return out


def bad_values(name: str, info: FieldInfo) -> list[str]:
    """Values every key must refuse, derived from its type and name; a key with none fails the walk."""
    annotation = _base(info.annotation)
    optional = annotation is not info.annotation
    out: list[str] = []
    if settings_checks._choices(info.annotation):
        out.append("nonsense")
    elif annotation is bool:
        out.append("maybe")
    elif annotation is int:
        out += ["abc", "1.5", *_bounds(info)]
    elif annotation is float:
        out += ["abc", "inf", "nan", *_bounds(info)]
    elif annotation is SecretStr:
        out += {"telegram_bot_token": ["not-a-token"], "telegram_webhook_secret": ["bad secret!", "ä" * 3]}.get(
            name, ["has a space"]
        )
        if name.startswith("slack_") and name.endswith("_token"):
            out.append("wrong-prefix-123")
    elif typing.get_origin(annotation) is list:
        out += ["abc, ,12", "12,,13"]
    elif typing.get_origin(annotation) is dict:
        out += ["{bad", '{"parsr": "qwen2.5:14b-instruct"}', '{"parser": ""}', "[1]"]
    elif annotation is str or name in ("data_dir", "domains_dir"):
        if not optional:
            out.append("")
        if name == "data_dir":
            out.append("{file}/data")  # under a file: filled in by the test
        elif name == "domains_dir":
            out.append("/nonexistent/almanac-domains")
        elif name.endswith(("_url", "_host")):
            out += ["ftp://example.com", "not a url"]
        elif name.endswith("_listen"):
            out.append("not an address!")
        elif name.endswith("_model"):
            out.append("two words")
        elif name.endswith("_command"):
            out.append("almanac")
        elif name == "default_timezone":
            out.append("Mars/Olympus")
    if name == "telegram_webhook_url":
        out.append("http://bot.example.com/hook")  # Telegram delivers to HTTPS only
    if not out:
        pytest.fail(f"no bad value known for {name.upper()}: teach bad_values() what a bad one looks like")
    return out


WALK = [(name.upper(), value) for name, info in Settings.model_fields.items() for value in bad_values(name, info)]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    import os

    for key in list(os.environ):
        if key.startswith(_PREFIXES) or key.upper() in {n.upper() for n in Settings.model_fields}:
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


def test_the_walk_covers_every_key() -> None:
    assert {key for key, _ in WALK} == {name.upper() for name in Settings.model_fields}


@pytest.mark.parametrize(("key", "value"), WALK, ids=[f"{k}={v!r}" for k, v in WALK])
def test_every_bad_value_of_every_key_is_one_line_naming_the_key(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str, value: str
) -> None:
    (clean_env / "file").write_text("not a folder")
    monkeypatch.setenv(key, value.replace("{file}", str(clean_env / "file")))
    with pytest.raises(SystemExit) as info:
        load_settings()
    assert info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and key in lines[0], lines
    if "SECRET" in key or "TOKEN" in key:
        assert value not in lines[0] or not value  # a secret is never repeated


def test_good_values_pass_and_choices_ignore_case(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, info in Settings.model_fields.items():
        for choice in settings_checks._choices(info.annotation):
            written = {name: f" {choice.swapcase()} "}
            assert settings_checks.tidy(Settings.model_fields, written)[name] == choice
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("ALLOWED_USERS", "12, tg:34,U0ALMANAC")
    monkeypatch.setenv("OLLAMA_AGENT_MODELS", ' {"parser": "qwen2.5:14b-instruct"} ')
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example.com/hook")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "Abc_123-xyz")
    monkeypatch.setenv("DOMAINS_DIR", str(clean_env))
    s = load_settings()
    assert s.log_level == "DEBUG" and s.allowed_users == ["12", "tg:34", "U0ALMANAC"]
    assert s.ollama_agent_models == {"parser": "qwen2.5:14b-instruct"}


def test_misspelt_keys_in_env_file_are_named(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (clean_env / ".env").write_text("# settings\nOLAMA_HOST=http://x:1\nLOG_LEVEL=info\nexport TELEGRAM_TOKEN=1\n")
    settings = load_settings()
    assert settings.log_level == "INFO"
    assert capsys.readouterr().err.splitlines() == [
        "almanac: warning: .env sets OLAMA_HOST, which is no setting (ignored); did you mean OLLAMA_HOST?",
        "almanac: warning: .env sets TELEGRAM_TOKEN, which is no setting (ignored); did you mean TELEGRAM_BOT_TOKEN?",
    ]


def test_agent_names_are_the_ones_the_engine_calls() -> None:
    agents = ROOT / "engine" / "agents"
    declared = {m for f in agents.glob("*.py") for m in re.findall(r'Agent\(\s*"(\w+)"', f.read_text())}
    assert declared and declared == set(AGENTS), declared ^ set(AGENTS)
    assert settings_checks.agent_models('{"former": "qwen2.5:14b-instruct"}') == {"former": "qwen2.5:14b-instruct"}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("OLLAMA_AGENT_MODELS", "{not json"),
        ("OLLAMA_TIMEOUT_S", "inf"),
        ("ALLOWED_USERS", "abc, ,12"),
        ("TELEGRAM_WEBHOOK_URL", "http://bot.example.com/hook"),
    ],
)
def test_issue_cases_stop_the_process_without_a_traceback(tmp_path: Path, key: str, value: str) -> None:
    result = run_bot(tmp_path, "console", **{key: value})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and key in result.stderr


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs /sys")
def test_a_data_dir_that_refuses_writes_is_named(tmp_path: Path) -> None:
    import os

    if os.access("/sys/kernel", os.W_OK) and os.geteuid() != 0:
        pytest.skip("/sys/kernel is writable here")
    result = run_bot(tmp_path, "console", DATA_DIR="/sys/kernel")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("almanac: bad setting DATA_DIR: cannot write in /sys/kernel")
