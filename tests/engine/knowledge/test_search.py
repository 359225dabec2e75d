"""Hybrid search on real Chroma with the real offline model: exact terms, hostile text, domains, languages."""

from __future__ import annotations

import shutil

import pytest

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.embedding import BuiltinEmbedder
from engine.knowledge.ingest import BUILTIN_KNOWLEDGE_DIR
from tests.engine.knowledge.conftest import _words, open_kb, write_articles

TOPICS = {
    "strength/rest.md": "# Rest Between Sets\n\nRest two to five minutes between heavy sets of squats. The old coach "
    "Lombardi told his lifters to sit down and breathe until they felt ready again.\n\n" + _words("resting"),
    "strength/volume.md": "# Training Volume\n\n" + _words("weekly sets per muscle"),
    "strength/overload.md": "# Progressive Overload\n\n" + _words("adding weight over time"),
    "strength/warmup.md": "# Warm-Up\n\n" + _words("ramping up before heavy sets"),
    "running/easy.md": "# Easy Running\n\n" + _words("slow conversational running"),
    "running/intervals.md": "# Intervals\n\n" + _words("fast repeats with rest"),
    "nutrition/protein.md": "# Protein\n\n" + _words("protein for muscle"),
    "nutrition/sleep.md": "# Sleep\n\n" + _words("sleeping eight hours"),
}


@pytest.fixture(scope="module")
def topics_kb(tmp_path_factory: pytest.TempPathFactory, embedder: BuiltinEmbedder) -> KnowledgeBase:
    root = tmp_path_factory.mktemp("topics")
    kb = open_kb(root / "data", embedder)
    kb.ingest(write_articles(root / "kb", TOPICS))
    return kb


def test_an_exact_term_match_ranks_in_the_top_3(topics_kb: KnowledgeBase) -> None:
    found = topics_kb.search("what did Lombardi say", top_k=3)
    assert "Rest Between Sets" in [c.article_title for c in found]
    hit = next(c for c in found if c.article_title == "Rest Between Sets")
    assert hit.lexical_rank == 1 and hit.score > 0


def test_results_carry_fused_scores_best_first(topics_kb: KnowledgeBase) -> None:
    found = topics_kb.search("slow conversational running", top_k=4)
    assert found[0].article_title == "Easy Running"
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)
    assert found[0].vector_rank == 1 and found[0].vector_similarity is not None


@pytest.mark.parametrize(
    "text", ['"unbalanced', "(bench AND", "NOT * OR", "🏋️‍♂️💪", "NEAR(a b)", "'; DROP TABLE chunks; --", "", "*"]
)
def test_hostile_text_never_raises(topics_kb: KnowledgeBase, text: str) -> None:
    found = topics_kb.search(text, top_k=3)
    assert len(found) <= 3


def test_a_domain_filter_keeps_other_domains_out(topics_kb: KnowledgeBase) -> None:
    found = topics_kb.search("protein for muscle", domains=["running"], top_k=5)
    assert found and {c.domain for c in found} == {"running"}
    both = topics_kb.search("protein", domains=["running", "nutrition"], top_k=8)
    assert {c.domain for c in both} <= {"running", "nutrition"}


def test_keywords_reach_the_word_search(topics_kb: KnowledgeBase) -> None:
    found = topics_kb.search("전혀 관련 없는 질문", top_k=3, keywords=["Lombardi"])
    hit = [c for c in found if c.article_title == "Rest Between Sets"]
    assert hit and hit[0].lexical_rank == 1


BUILTIN = {
    "Deload": "strength/deload.md",
    "Protein Intake": "nutrition/protein-intake.md",
    "Sleep and Recovery": "general_fitness/sleep-and-recovery.md",
    "Swim Drills": "swimming/swim-drills.md",
    "Hydration": "nutrition/hydration.md",
    "Race Pacing": "running/race-pacing.md",
}


@pytest.fixture(scope="module")
def english_kb(tmp_path_factory: pytest.TempPathFactory, embedder: BuiltinEmbedder) -> KnowledgeBase:
    root = tmp_path_factory.mktemp("english")
    for name in BUILTIN.values():
        (root / "kb" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(BUILTIN_KNOWLEDGE_DIR / name, root / "kb" / name)
    kb = open_kb(root / "data", embedder)
    kb.ingest(root / "kb")
    return kb


@pytest.mark.parametrize(
    ("question", "article"),
    [
        ("디로드 주간이 뭐야?", "Deload"),
        ("하루에 단백질 얼마나 먹어야 해?", "Protein Intake"),
        ("운동선수는 잠을 얼마나 자야 해?", "Sleep and Recovery"),
        ("초보자를 위한 자유형 드릴", "Swim Drills"),
        ("운동할 때 물은 얼마나 마셔야 해?", "Hydration"),
        ("마라톤은 어떤 페이스로 시작해야 해?", "Race Pacing"),
    ],
)
def test_a_korean_question_finds_the_english_article(english_kb: KnowledgeBase, question: str, article: str) -> None:
    # No keywords: the words share nothing, only the multilingual model connects them.
    found = english_kb.search(question, top_k=1)
    assert found[0].article_title == article
    assert found[0].lexical_rank is None


KOREAN = {
    "strength/디로드.md": "# 디로드\n\n디로드는 피로를 풀기 위해 일주일 정도 훈련 볼륨이나 무게를 줄이는 계획된 가벼운 기간이다. "
    "세트 수를 3분의 1에서 절반 정도 줄이거나 무게를 평소의 60퍼센트 정도로 낮춘다. 같은 운동을 유지해 기술을 잊지 않게 하고, "
    "잠을 충분히 자고 잘 먹는다. 몇 주 동안 기록이 정체되고 같은 무게가 더 무겁게 느껴질 때 디로드를 고려한다.\n",
    "nutrition/단백질.md": "# 단백질 섭취\n\n운동하는 사람은 보통 체중 1킬로그램당 하루 1.6그램에서 2.2그램의 단백질을 먹는 것이 좋다. "
    "한 끼에 20에서 40그램씩 하루 서너 번에 나누어 먹으면 근육 합성에 유리하다. 고기, 생선, 달걀, 우유, 두부, 콩, 단백질 보충제가 "
    "좋은 공급원이다. 신장 질환이 있는 사람은 의사와 상담해야 한다.\n",
    "general_fitness/수면.md": "# 수면과 회복\n\n성인은 매일 밤 7시간 이상 자는 것이 권장되고, 힘든 훈련을 하는 운동선수는 더 많은 수면이 도움이 된다. "
    "잠이 부족하면 지구력과 근력이 떨어지고 같은 운동이 더 힘들게 느껴지며 부상 위험이 커진다. 규칙적인 취침 시간, 어둡고 시원한 방, "
    "오후의 카페인과 술을 피하는 것이 숙면에 도움이 된다.\n",
    "swimming/자유형.md": "# 자유형 드릴\n\n캐치업 드릴은 한 손이 앞에서 기다렸다가 다른 손이 닿으면 젓기 시작하는 연습으로 긴 스트로크와 타이밍을 익힌다. "
    "핑거팁 드래그는 팔을 돌릴 때 손끝으로 물 표면을 끌어 높은 팔꿈치를 만든다. 옆으로 누워 킥하기는 균형과 몸통 회전을 기른다. "
    "드릴은 25미터에서 50미터씩 짧게 반복한다.\n",
}


@pytest.fixture(scope="module")
def korean_kb(tmp_path_factory: pytest.TempPathFactory, embedder: BuiltinEmbedder) -> KnowledgeBase:
    root = tmp_path_factory.mktemp("korean")
    kb = open_kb(root / "data", embedder)
    assert kb.ingest(write_articles(root / "kb", KOREAN)).added == 4
    return kb


@pytest.mark.parametrize(
    ("question", "article"),
    [
        ("what is a deload week", "디로드"),
        ("how much protein should I eat per day", "단백질 섭취"),
        ("how many hours of sleep do athletes need", "수면과 회복"),
        ("freestyle swimming drills", "자유형 드릴"),
    ],
)
def test_an_english_question_finds_the_korean_article(korean_kb: KnowledgeBase, question: str, article: str) -> None:
    found = korean_kb.search(question, top_k=1)
    assert found[0].article_title == article and found[0].lexical_rank is None
