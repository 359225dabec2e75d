"""CHROMA_TOKEN: a real ``chroma run`` server reached only through a token-checking proxy, as in docker-compose.yml.

Chroma 1.x's server checks no token itself, so the proxy (nginx in the deployment,
``tests.helpers.chroma.TokenProxy`` here, with the same rule) does. With the right
token everything works through it; without it, or with a wrong one, Almanac says
so in one sentence that names CHROMA_TOKEN and never repeats the token.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from bot.__main__ import main as bot_main
from bot.config import Settings
from engine.domains.registry import DomainRegistry
from engine.knowledge.base import KnowledgeBase
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import BuiltinEmbedder
from engine.knowledge.library import Library
from engine.knowledge.store import KnowledgeStoreError
from tests.engine.knowledge.conftest import GRAPH, write_articles
from tests.helpers.chroma import TokenProxy, chroma_server

TOKEN = secrets.token_urlsafe(24)
WRONG = secrets.token_urlsafe(24)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TokenProxy]:
    # One server for the module: `chroma run` takes a few seconds to start.
    with chroma_server(tmp_path_factory.mktemp("chroma")) as port, TokenProxy(port, TOKEN).running() as running:
        yield running


@pytest.fixture(autouse=True)
def right_token(proxy: TokenProxy) -> None:
    proxy.token = TOKEN  # a test that rotates it leaves the next one the right one


def config(data_dir: Path, proxy: TokenProxy, token: str | None) -> KnowledgeConfig:
    return KnowledgeConfig(
        data_dir=data_dir,
        chroma_host="127.0.0.1",
        chroma_port=proxy.port,
        chroma_token=SecretStr(token) if token is not None else None,
        collection=f"c-{secrets.token_hex(4)}",  # the module shares one server: a collection per test
    )


def test_the_setting_reaches_the_knowledge_base_and_is_masked_in_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CHROMA_TOKEN", TOKEN)
    settings = Settings()
    token = settings.knowledge_config().chroma_token
    assert token is not None and token.get_secret_value() == TOKEN
    assert TOKEN in settings.secrets() and TOKEN not in repr(settings.knowledge_config())
    monkeypatch.setenv("CHROMA_TOKEN", "")  # `CHROMA_TOKEN=` as in .env.example: no token
    assert Settings().knowledge_config().chroma_token is None


def test_with_the_token_ingest_and_retrieve_work_through_the_proxy(
    tmp_path: Path, proxy: TokenProxy, embedder: BuiltinEmbedder
) -> None:
    refused = proxy.refused
    kb = KnowledgeBase.open(config(tmp_path / "data", proxy, TOKEN), embedder)
    report = kb.ingest(write_articles(tmp_path / "kb", GRAPH))
    assert report.added == len(GRAPH)
    result = kb.retrieve("squats and leg strength", top_k=1, expansion_depth=1)
    assert [c.article_title for c in result.chunks][:1] == ["Alpha"] and result.added
    assert kb.count() == len(GRAPH) + 2  # the vectors are on the server, read back through the proxy
    kb.close()
    assert proxy.refused == refused and proxy.forwarded > 0


@pytest.mark.parametrize(
    ("token", "says"),
    [(None, "CHROMA_TOKEN is not set"), (WRONG, "CHROMA_TOKEN is not the one")],
    ids=["no token", "wrong token"],
)
def test_a_missing_or_wrong_token_is_one_clear_error(
    tmp_path: Path, proxy: TokenProxy, embedder: BuiltinEmbedder, token: str | None, says: str
) -> None:
    with pytest.raises(KnowledgeStoreError) as info:
        KnowledgeBase.open(config(tmp_path, proxy, token), embedder)
    message = str(info.value)
    assert says in message and f"127.0.0.1:{proxy.port} answered 401" in message
    assert WRONG not in message and TOKEN not in message


def test_a_token_rotated_on_the_proxy_while_running_fails_searches_clearly(
    tmp_path: Path, proxy: TokenProxy, embedder: BuiltinEmbedder
) -> None:
    kb = KnowledgeBase.open(config(tmp_path / "data", proxy, TOKEN), embedder)
    kb.ingest(write_articles(tmp_path / "kb", {"strength/zeta.md": GRAPH["strength/zeta.md"]}))
    proxy.token = WRONG
    with pytest.raises(KnowledgeStoreError, match="CHROMA_TOKEN is missing or wrong") as info:
        kb.retrieve("deadlift technique", top_k=1)
    assert TOKEN not in str(info.value)
    kb.close()


def test_retrieve_with_a_wrong_token_stops_with_one_line_not_a_traceback(
    tmp_path: Path, proxy: TokenProxy, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for key, value in {
        "DATA_DIR": str(tmp_path / "data"),
        "CHROMA_HOST": "127.0.0.1",
        "CHROMA_PORT": str(proxy.port),
        "CHROMA_TOKEN": WRONG,
    }.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit) as info:
        bot_main(["retrieve", "what is a deload?"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("almanac: the Chroma server refused the token"), err
    assert WRONG not in err[0]


async def test_in_a_chat_the_answer_goes_without_articles_and_the_log_says_why(
    tmp_path: Path, proxy: TokenProxy
) -> None:
    library = await Library.open(config(tmp_path, proxy, WRONG), DomainRegistry.load())
    with capture_logs() as logs:
        assert await library.find("what is a deload?", ["strength"], 4) == []
    notice = library.notice()
    assert notice is not None and notice.code == "no_articles" and "could not be opened" in notice.text
    errors = [e for e in logs if e["event"] == "knowledge.unavailable"]
    assert len(errors) == 1 and "CHROMA_TOKEN is not the one" in errors[0]["error"]
    assert WRONG not in str(logs)
    await library.close()
