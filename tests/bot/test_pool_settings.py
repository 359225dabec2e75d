"""OLLAMA_HOSTS and its caps, as read from the environment into the engine's settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import load_settings
from engine.config import ModelHost


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for key in (
        "OLLAMA_HOST",
        "OLLAMA_HOSTS",
        "OLLAMA_HOST_CONCURRENCY",
        "OLLAMA_MODEL_CONCURRENCY",
        "OPENAI_AGENTS",
        "OPENAI_BASE_URL",
        "OPENAI_MODEL",
    ):
        monkeypatch.delenv(key, raising=False)


def test_hosts_with_their_own_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOSTS", " http://a:11434 , https://u:pw@b.example:443/#4")
    monkeypatch.setenv("OLLAMA_MODEL_CONCURRENCY", "2")
    settings = load_settings()
    llm = settings.engine_config().llm
    assert llm.hosts == (ModelHost(url="http://a:11434"), ModelHost(url="https://u:pw@b.example:443", concurrency=4))
    assert (llm.host_concurrency, llm.model_concurrency) == (1, 2)
    # Without OLLAMA_HOST, the first host also serves embeddings; the pool's passwords are masked in logs.
    assert llm.host == "http://a:11434" == settings.knowledge_config().ollama_host
    assert "pw" in settings.secrets()


def test_no_pool_is_the_one_host_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://z:11434")
    monkeypatch.setenv("OLLAMA_MODEL_CONCURRENCY", "")
    llm = load_settings().engine_config().llm
    assert (llm.host, llm.hosts, llm.max_concurrency, llm.model_concurrency) == ("http://z:11434", (), 8, None)


def test_one_url_stands_for_ollama_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://z:11434")
    monkeypatch.setenv("OLLAMA_HOSTS", "http://a:11434#3")
    settings = load_settings()
    llm = settings.engine_config().llm
    # No pool: the single-server path, with the URL's cap as its one cap. Embeddings stay where OLLAMA_HOST says.
    assert (llm.host, llm.hosts, llm.max_concurrency) == ("http://a:11434", (), 3)
    assert settings.knowledge_config().ollama_host == "http://z:11434"


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("http://a:11434,b:11434", "item 2: must start with http:// or https://"),
        ("http://a:11434#0,http://b:11434", "item 1: http://a:11434#0: after # comes the calls it takes at once"),
        ("http://a:11434,http://u:secret@b:1#x", "item 2: http://***@b:1#x: after #"),
        ("http://a:11434,,http://b:11434", "item 2 is empty"),
    ],
)
def test_a_bad_host_is_one_line_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str, reason: str
) -> None:
    monkeypatch.setenv("OLLAMA_HOSTS", value)
    with pytest.raises(SystemExit) as stopped:
        load_settings()
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith("almanac: bad setting OLLAMA_HOSTS: ") and reason in err, err
    assert "secret" not in err


def test_an_openai_compatible_server_for_the_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://vllm:8000/v1/")
    monkeypatch.setenv("OPENAI_MODEL", "Qwen/Qwen2.5-7B-Instruct")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-1234")
    monkeypatch.setenv("OPENAI_AGENTS", "synthesizer, chat")
    settings = load_settings()
    route = settings.engine_config().llm.openai
    assert route is not None
    assert (route.base_url, route.model, route.agents) == (
        "http://vllm:8000/v1",
        "Qwen/Qwen2.5-7B-Instruct",
        ("synthesizer", "chat"),
    )
    assert "sk-local-1234" in settings.secrets() and "sk-local-1234" not in repr(route)


def test_no_openai_server_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "")
    assert load_settings().engine_config().llm.openai is None


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"OPENAI_BASE_URL": "http://vllm:8000/v1"}, "bad settings: OPENAI_MODEL is required with OPENAI_BASE_URL"),
        (
            {"OPENAI_BASE_URL": "http://vllm:8000/v1", "OPENAI_MODEL": "m", "OPENAI_AGENTS": "synthesiser"},
            "bad setting OPENAI_AGENTS: item 1 names no agent 'synthesiser' (did you mean synthesizer?)",
        ),
        ({"OPENAI_BASE_URL": "vllm:8000/v1", "OPENAI_MODEL": "m"}, "bad setting OPENAI_BASE_URL: must start with"),
    ],
)
def test_a_bad_openai_setting_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], env: dict[str, str], line: str
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit):
        load_settings()
    assert capsys.readouterr().err.startswith(f"almanac: {line}")
