"""Knowledge-base fixtures: the real offline model (loaded once per session), real Chroma in tmp dirs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import BuiltinEmbedder, builtin_embedder


@pytest.fixture(scope="session")
def embedder() -> BuiltinEmbedder:
    """The built-in multilingual model; loading it once keeps the knowledge tests fast."""
    model = builtin_embedder()
    model.embed_query("warm up")
    return model


def write_articles(root: Path, articles: Mapping[str, str]) -> Path:
    """Write ``relative path -> text`` under ``root``; returns ``root``."""
    for name, text in articles.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def open_kb(data_dir: Path, embedder: Any, **overrides: Any) -> KnowledgeBase:
    return KnowledgeBase.open(KnowledgeConfig(data_dir=data_dir, **overrides), embedder)


def _words(topic: str, n: int = 60) -> str:
    # Sections must reach the chunker's 50-token minimum to stay separate chunks.
    filler = (
        f"This section is about {topic}. It explains {topic} in plain words for people who train, "
        f"with practical advice on {topic}, common mistakes with {topic}, and how {topic} changes over weeks "
        f"of regular practice. Coaches often repeat that {topic} matters for long-term progress."
    )
    return filler if n <= 60 else filler + " " + filler


# A small link graph for the expander: Alpha -> Beta, Gamma, Delta, Nowhere (missing);
# Beta (three sections) -> Epsilon; Gamma -> Alpha (a back-link), Zeta;
# Epsilon -> Beta (a cycle), Eta; Delta, Zeta, Eta and Lonely link nowhere.
GRAPH = {
    "strength/alpha.md": f"# Alpha\n\n{_words('squats and leg strength')} See [[Beta]], [[Gamma]], [[Delta]] and [[Nowhere]].\n",
    "strength/beta.md": (
        f"# Beta\n\n{_words('protein intake for muscle')} More in [[Epsilon]].\n\n"
        f"## Sleep\n\n{_words('sleep and recovery at night')}\n\n"
        f"## Swimming\n\n{_words('freestyle swimming drills in the pool')}\n"
    ),
    "strength/gamma.md": f"# Gamma\n\n{_words('heart rate zones for running')} Back to [[Alpha]]; see also [[Zeta]].\n",
    "strength/delta.md": f"# Delta\n\n{_words('stretching and mobility')}\n",
    "strength/epsilon.md": f"# Epsilon\n\n{_words('creatine supplements')} Compare [[Beta]] and [[Eta]].\n",
    "strength/zeta.md": f"# Zeta\n\n{_words('deadlift technique')}\n",
    "strength/eta.md": f"# Eta\n\n{_words('caffeine before training')}\n",
    "strength/lonely.md": f"# Lonely\n\n{_words('walking and daily steps')}\n",
}


@pytest.fixture(scope="module")
def graph_kb(tmp_path_factory: pytest.TempPathFactory, embedder: BuiltinEmbedder) -> Iterator[KnowledgeBase]:
    """The link graph above, ingested once per module into a real Chroma collection."""
    root = tmp_path_factory.mktemp("graph")
    kb = open_kb(root / "data", embedder)
    report = kb.ingest(write_articles(root / "articles", GRAPH))
    assert report.added == len(GRAPH) and not report.skipped
    yield kb
    kb.close()
