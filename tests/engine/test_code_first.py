"""Code reads first (READ_IN_CODE, the default): a log code reads is stored with no model call, a model
that contradicts code's reading changes nothing, small talk is answered by code, and a question code reads
is planned without the Router or the Planner. Real engine, real ollama client, fake model over HTTP."""

from __future__ import annotations

from datetime import date, datetime, timezone

from engine.outcomes import Answer, Logged, Notice
from engine.turns import Control, Message
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import FakeOllama
from tests.helpers import scripts
from tests.helpers.outcomes import after_closing

CONV = USER = "console:kim"
NOW = datetime(2026, 11, 25, 3, 0, tzinfo=timezone.utc)  # Wednesday noon in Seoul


def msg(text: str) -> Message:
    return Message(conversation=CONV, user=USER, text=text, at=NOW)


def liar(fake: FakeOllama) -> None:
    """A model that reads every message wrong: chat, 60 kg, 2 sets."""
    fake.default(scripts.router("CHAT"))
    fake.default(scripts.strength("bench press", 60, 8, 2))
    fake.default(scripts.chat("Try logging like: bench 55kg 10x5"))


def sets_of(entry_data: dict[str, object]) -> list[tuple[str, float | None, int | None]]:
    out = []
    for ex in entry_data["exercises"]:  # type: ignore[attr-defined]
        for s in ex["set_details"]:
            out.append((ex["name"], s["weight"], s["reps"]))
    return out


async def test_a_log_code_reads_is_stored_as_read_with_no_model_call(open_engine: OpenEngine, fake: FakeOllama) -> None:
    liar(fake)
    async with open_engine(read_in_code=True) as engine:
        out = await engine.handle(msg("bench 55kg 10x5"))
        assert [type(o) for o in out] == [Logged]
        assert out[0].entries[0].summary == "bench press 55 kg × 10 reps × 5 sets"
        assert out[0].entries[0].on == date(2026, 11, 25)
        (stored,) = await engine.entries.recent(USER)
        assert sets_of(stored.data) == [("bench press", 55, 10)] * 5
    assert fake.titles() == []  # not one model call: no Router, no Parser


async def test_korean_notation_and_per_set_lists_are_read_in_code(open_engine: OpenEngine, fake: FakeOllama) -> None:
    liar(fake)
    async with open_engine(read_in_code=True) as engine:
        for text in (
            "벤치프레스 55키로 10회 5세트",
            "bench 60kg 8, 8, 6",
            "deadlift 140x3x3 @rpe8",
            "어제 스쿼트 100키로 5x5",
        ):
            out = await engine.handle(msg(text))
            assert isinstance(out[0], Logged), text
        stored = {e.raw_text: e for e in await engine.entries.recent(USER)}
    assert sets_of(stored["벤치프레스 55키로 10회 5세트"].data) == [("bench press", 55, 10)] * 5
    assert sets_of(stored["bench 60kg 8, 8, 6"].data) == [
        ("bench press", 60, 8),
        ("bench press", 60, 8),
        ("bench press", 60, 6),
    ]
    deadlift = stored["deadlift 140x3x3 @rpe8"].data["exercises"][0]
    assert [(s["weight"], s["reps"], s["rpe"]) for s in deadlift["set_details"]] == [(140, 3, 8)] * 3
    assert stored["어제 스쿼트 100키로 5x5"].occurred_on == date(2026, 11, 24)
    assert fake.titles() == []


async def test_a_run_is_read_in_code(open_engine: OpenEngine, fake: FakeOllama) -> None:
    liar(fake)
    async with open_engine(read_in_code=True) as engine:
        out = await engine.handle(msg("5k in 25:30"))
        assert isinstance(out[0], Logged) and out[0].entries[0].domain == "running"
        (stored,) = await engine.entries.recent(USER)
    assert {m["name"]: m["value"] for m in stored.data["metrics"]} == {"distance_km": "5", "duration": "25:30"}
    assert fake.titles() == []


async def test_the_model_fills_what_code_could_not_read_and_never_changes_what_it_did(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    # "and some stretching" is for the model; the bench is code's, whatever the model says of it.
    parsed = scripts.plain(scripts.strength("bench press", 60, 8, 2))
    parsed["exercises"].append({"name": "stretching", "sets": 1, "weight_unit": None, "set_details": [{"set_num": 1}]})
    fake.script("ParserOutput", parsed)
    async with open_engine(read_in_code=True) as engine:
        out = await engine.handle(msg("bench 55kg 10x5 and some stretching"))
        assert isinstance(out[0], Logged)
        (stored,) = await engine.entries.recent(USER)
    assert [ex["name"] for ex in stored.data["exercises"]] == ["bench press", "stretching"]
    assert sets_of(stored.data)[:5] == [("bench press", 55, 10)] * 5
    assert fake.titles() == ["ParserOutput"]  # a message with notation never needs the Router


async def test_an_unsure_order_goes_to_the_model_with_a_hint(open_engine: OpenEngine, fake: FakeOllama) -> None:
    # "60kg 3x8": 3 sets of 8 or 3 reps of 8 sets? Code does not guess.
    fake.script(scripts.strength("bench press", 60, 8, 3))
    async with open_engine(read_in_code=True) as engine:
        out = await engine.handle(msg("bench 60kg 3x8"))
        assert isinstance(out[0], Logged)
    assert fake.titles() == ["ParserOutput"]
    assert "order of reps and sets unclear" in str(fake.calls("ParserOutput")[0])


async def test_greetings_and_thanks_are_answered_by_code(open_engine: OpenEngine, fake: FakeOllama) -> None:
    liar(fake)
    async with open_engine(read_in_code=True) as engine:
        for text, word in (
            ("hello", "Hi!"),
            ("thanks!", "welcome"),
            ("안녕하세요", "안녕하세요"),
            ("고마워요", "천만에요"),
        ):
            out = await engine.handle(msg(text))
            assert [type(o) for o in out] == [Answer] and word in out[0].text, text
            assert "no entries" not in out[0].text
    assert fake.titles() == []


async def test_a_question_code_reads_is_planned_in_code(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer("Here is what your log shows."))
    async with open_engine(read_in_code=True) as engine:
        for day, text in ((date(2026, 11, 10), "squat 100kg 5x5"), (date(2026, 11, 20), "squat 105kg 5x5")):
            await engine.handle(
                Message(
                    conversation=CONV,
                    user=USER,
                    text=text,
                    at=datetime(day.year, day.month, day.day, 3, tzinfo=timezone.utc),
                )
            )
        out = await engine.handle(msg("how many times did I squat in the last two weeks?"))
    assert any(isinstance(o, Answer) for o in out)
    assert "RouterOutput" not in fake.titles() and "PlannerOutput" not in fake.titles()


async def test_a_period_code_cannot_read_is_said_aloud(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.default(scripts.analyzer("sufficient"))
    fake.default(scripts.synthesizer("Here is what your log shows."))
    async with open_engine(read_in_code=True) as engine:
        await engine.handle(msg("squat 100kg 5x5"))
        out = await engine.handle(msg("how many times did I squat in the last few weeks?"))
    notices = [o for o in out if isinstance(o, Notice) and o.code == "period"]
    assert notices and "the last few weeks" in notices[0].text


async def test_undo_takes_back_a_log_code_stored(open_engine: OpenEngine, fake: FakeOllama) -> None:
    liar(fake)
    async with open_engine(read_in_code=True) as engine:
        await engine.handle(msg("squat 100kg 5x5"))
        await engine.handle(msg("bench 55kg 10x5"))
        (removed,) = await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        assert isinstance(removed, Notice) and removed.text == (
            "Removed the last log: bench press 55 kg × 10 reps × 5 sets (2026-11-25)."
        )
        assert [e.summary for e in await engine.entries.recent(USER)] == ["squat 100 kg × 5 reps × 5 sets"]
        await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        (nothing,) = await engine.handle(Control(conversation=CONV, user=USER, action="undo"))
        assert isinstance(nothing, Notice) and nothing.code == "nothing"
    assert fake.titles() == []


async def test_sets_with_no_exercise_ask_which_one_with_their_lifts_as_choices(
    open_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: "did 5x5 today" was told it had no exercise, amount or note (the amount was read) and got
    no choices. Now code asks which exercise, offers the person's recent lifts, and stores the sets as read."""
    from engine.outcomes import Ask
    from engine.turns import ClarificationAnswer, Resume

    liar(fake)
    async with open_engine() as engine:
        await engine.handle(msg("bench 55kg 10x5"))
        await engine.handle(msg("squat 100kg 5x5"))
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask), ask
        assert ask.questions[0].text == "Which exercise was that?"
        assert ask.questions[0].options[:2] == ["squat", "bench press"]
        assert "read the sets and reps" in ask.why
        # A bodyweight move needs nothing more: code reads the sets with the person's word, no model call.
        (logged,) = after_closing(
            await engine.handle(
                Resume(
                    conversation=CONV,
                    user=USER,
                    interrupt_id=ask.interrupt_id,
                    answer=ClarificationAnswer(answers=["pull-ups"]),
                    at=NOW,
                )
            ),
            ask,
            "Answered",
        )
        assert isinstance(logged, Logged), logged
        assert logged.entries[0].summary == "pull-up × 5 reps × 5 sets"
        assert fake.calls("ParserOutput") == []
        # A lift still lacks its load: the model reads the rest, with the person's answer in its prompt.
        (ask,) = await engine.handle(msg("did 5x5 today"))
        assert isinstance(ask, Ask)
        await engine.handle(
            Resume(
                conversation=CONV,
                user=USER,
                interrupt_id=ask.interrupt_id,
                answer=ClarificationAnswer(answers=["bench press"]),
                at=NOW,
            )
        )
    (call,) = fake.calls("ParserOutput")
    assert "bench press" in str(call["messages"][-1]["content"])
