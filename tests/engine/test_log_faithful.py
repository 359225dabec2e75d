"""Issue 11 in the LOG flow: an empty parse is no entry, the parser's domain wins, fractions are no
dates, a guessed date is said, zero-width characters vanish, planned is not done."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from engine.outcomes import Ask, Logged, Notice
from engine.turns import ClarificationAnswer, Message, Resume
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

USER = CONV = "console:kim"
SUNDAY = datetime(2026, 11, 22, 1, 0, tzinfo=timezone.utc)  # 10:00 in Seoul
TODAY = date(2026, 11, 22)


def msg(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=SUNDAY)


def empty_parse(domain: str = "strength") -> dict[str, Any]:
    return {"activity_type": domain, "domain": domain, "exercises": [], "metrics": [], "date_text": "", "notes": "",
            "summary": "ok", "missing": [], "status": "parsed"}  # fmt: skip


def run_parse(date_text: str = "") -> dict[str, Any]:
    return {"activity_type": "running", "domain": "running", "exercises": [],
            "metrics": [{"name": "distance_km", "value": "21.1", "unit": "km"},
                        {"name": "duration", "value": "1:52:40", "unit": ""}],
            "date_text": date_text, "notes": "", "summary": "half marathon", "missing": [], "status": "parsed"}  # fmt: skip


async def test_an_empty_parse_asks_what_was_meant_and_stores_nothing(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script("ParserOutput", empty_parse(), scripts.strength("bench press", 55, 10, 5))
    async with open_engine() as engine:
        (ask,) = await engine.handle(msg("ok"))
        # Before: "✓ logged … ok", an entry with no data.
        assert isinstance(ask, Ask) and ask.questions[0].text.startswith("What did you do?")
        assert await engine.entries.count(USER) == 0
        assert fake.calls("ClarifierOutput") == []  # nothing was read, so code asks
        answer = Resume(conversation=CONV, user=USER, interrupt_id=ask.interrupt_id,
                        answer=ClarificationAnswer(answers=["bench 55kg 10x5"]), at=SUNDAY)  # fmt: skip
        (logged,) = after_closing(await engine.handle(answer), ask)
        assert isinstance(logged, Logged) and logged.entries[0].summary == "bench press 55 kg × 10 reps × 5 sets"


async def test_the_parsers_domain_wins_over_the_routers(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG", ["strength"]))
    fake.script("ParserOutput", run_parse())
    async with open_engine() as engine:
        (logged, *_) = await engine.handle(msg("ran a 1/2 marathon in 1:52:40"))
        assert isinstance(logged, Logged)
        (entry,) = await engine.entries.recent(USER)
    # Before: stored as strength (the router's guess) and on January 2 (the fraction read as a date).
    assert entry.domain == "running" and entry.occurred_on == TODAY


async def test_fractions_and_scores_are_no_dates_in_a_log(open_engine: OpenEngine, fake: FakeOllama) -> None:
    texts = ["3/4 squats 100kg 5x5", "10/10 laps of the track", "그제야 스쿼트 100키로 5x5"]
    fake.script("RouterOutput", *[scripts.router("LOG")] * len(texts))
    fake.script("ParserOutput", *[scripts.strength("squat", 100, 5, 5, date_text=t.split()[0]) for t in texts])
    async with open_engine() as engine:
        for text in texts:
            out = await engine.handle(msg(text))
            assert isinstance(out[0], Logged) and out[0].entries[0].on == TODAY, text
            assert not any(isinstance(o, Notice) for o in out), text


async def test_a_guessed_date_is_said(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5, date_text="10/5"))
    async with open_engine() as engine:
        logged, notice = await engine.handle(msg("bench 10/5 55kg"))
    assert isinstance(logged, Logged) and logged.entries[0].on == date(2026, 10, 5)
    assert isinstance(notice, Notice) and notice.text == (
        "I read “10/5” as the date 2026-10-05. If it wasn't a date, tell me which day it was."
    )


async def test_zero_width_characters_neither_fill_nor_split_a_message(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("벤치프레스", 55, 10, 5))
    async with open_engine() as engine:
        (empty,) = await engine.handle(msg("\u200b\u200b\ufeff"))
        assert isinstance(empty, Notice) and empty.code == "empty"  # before: a message for the model
        await engine.handle(msg("벤\u200b치프레스 55키로 10x5"))
        (entry,) = await engine.entries.recent(USER)
    assert "bench press" in entry.terms and "\u200b" not in entry.raw_text


async def test_planned_sessions_are_not_what_was_done_last(open_engine: OpenEngine) -> None:
    from engine.store.entries import ALL_KINDS

    async with open_engine() as engine:
        done = scripts.bench_entry(TODAY, 55, source_key="done")
        plan = scripts.bench_entry(date(2026, 11, 24), 60, source_key="plan").model_copy(
            update={"kind": "planned", "source": "plan", "summary": "planned: bench press 60 kg × 10 reps × 5 sets"}
        )
        await engine.entries.add(USER, [done, plan])
        # Before: the planned session (dated later) was the "latest" entry and a search hit.
        assert [e.source_key for e in await engine.entries.recent(USER)] == ["done"]
        assert [e.source_key for e in await engine.entries.search(USER, ["bench press"])] == ["done"]
        assert [e.source_key for e in await engine.entries.between(USER, TODAY, date(2026, 11, 30))] == ["done"]
        both = await engine.entries.between(USER, TODAY, date(2026, 11, 30), kinds=ALL_KINDS)
        assert [e.kind for e in both] == ["parsed", "planned"]
        assert [e.source_key for e in await engine.entries.recent(USER, kinds=("planned",))] == ["plan"]
