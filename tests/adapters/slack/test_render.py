"""Block Kit rendering: pure functions, checked against the limits the fake Web API enforces."""

from __future__ import annotations

from datetime import date, datetime, timezone

from adapters.slack.actions import Press
from adapters.slack.render import answer, approval, decided, plain, render
from adapters.slack.text import esc, split
from engine import Answer, ApprovalRequest, Ask, Citation, Failure, Logged, LoggedEntry, Notice, Question
from tests.fakes.slack_limits import block_errors

CONV = "slack:T1:C1:1700000000.000100:U1"


def test_mrkdwn_escapes_control_characters_only() -> None:
    assert esc("a & b <!channel> > c *bold*") == "a &amp; b &lt;!channel&gt; &gt; c *bold*"


def test_split_prefers_paragraphs_then_lines_then_spaces() -> None:
    text = "\n\n".join(["a" * 50, "b" * 50, "c" * 50])
    assert split(text, 110) == ["a" * 50 + "\n\n" + "b" * 50, "c" * 50]
    assert split("x" * 30 + "\n" + "y" * 30, 40) == ["x" * 30, "y" * 30]
    assert split("word " * 10, 12) == ["word word", "word word", "word word", "word word", "word word "]
    assert split("z" * 25, 10) == ["z" * 10, "z" * 10, "z" * 5]


def test_long_answer_becomes_several_valid_messages_cut_between_paragraphs() -> None:
    paragraphs = [f"{i}. " + "steady <work> & more, " * 40 for i in range(16)]
    text = "\n\n".join(paragraphs)
    assert len(text) > 13_000
    cites = [Citation(title="bench 55 kg", ref="entry:1", on=date(2026, 11, 20))]
    messages = answer(Answer(text=text, citations=cites))
    assert len(messages) == 2
    assert all(block_errors(m.blocks) is None for m in messages)
    bodies = [m.blocks[0]["text"] for m in messages]
    assert "\n\n".join(bodies) == esc(text)  # nothing lost, cut at a paragraph boundary
    assert all(m.text == m.blocks[0]["text"] for m in messages)  # the plain fallback is the same text
    assert messages[-1].blocks[-1]["type"] == "context" and "2026-11-20" in str(messages[-1].blocks[-1])
    assert "&lt;work&gt; &amp; more" in bodies[0] and "<work>" not in bodies[0]  # the model's <, > and & are not markup


def test_ask_has_a_button_per_choice_and_skip_owned_by_the_asked() -> None:
    q = Ask(
        interrupt_id="abc123",
        questions=[Question(text="Which <one>?", options=["Bench press", "Squat", "x" * 100])],
        why="I need it",
        if_declined="kept as a note",
        asked_by="slack:T1:U1",
    )
    (message,) = render(q, CONV)
    assert block_errors(message.blocks) is None
    assert "Which &lt;one&gt;?" in message.blocks[0]["text"]["text"]
    buttons = message.blocks[-1]["elements"]
    assert [b["text"]["text"] for b in buttons][:2] == ["Bench press", "Squat"]
    assert buttons[-1]["text"]["text"] == "Skip" and len(buttons[2]["text"]["text"]) == 75
    press = Press.parse(buttons[1]["action_id"], buttons[1]["value"])
    assert press == Press("choice", "abc123", "U1", CONV, 1)
    assert all(len(b["value"]) < 200 for b in buttons)


def test_plan_has_context_and_approve_revise_cancel_with_confirm() -> None:
    req = ApprovalRequest(
        interrupt_id="p1",
        title="Next 4 weeks <bench>",
        plan={},
        summary="- add sessions",
        confidence=0.87,
        evidence=[Citation(title="Progression", url="https://example.org/p"), Citation(title="log", ref="entry:2")],
        asked_by="slack:T1:U1",
    )
    message = approval(req, CONV)
    assert block_errors(message.blocks) is None
    context = message.blocks[1]["elements"][0]["text"]
    assert "Confidence 87%" in context and "<https://example.org/p|Progression>" in context
    approve, revise, cancel = message.blocks[-1]["elements"]
    assert (approve["style"], revise.get("style"), cancel["style"]) == ("primary", None, "danger")
    assert cancel["confirm"]["confirm"]["text"] == "Cancel the plan"
    done = decided(message.blocks, "✓ Approved", "U1", datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc))
    assert all(b["type"] != "actions" for b in done) and block_errors(done) is None
    assert "<@U1>" in done[-1]["elements"][0]["text"] and "<!date^1795435200^" in done[-1]["elements"][0]["text"]


def test_logged_notice_and_failure_are_escaped_sections() -> None:
    logged = Logged(entries=[LoggedEntry(entry_id="1", on=date(2026, 11, 22), domain="strength", summary="a<b>")])
    (message,) = render(logged, CONV)
    assert message.blocks[0]["text"]["text"] == "✓ Logged 2026-11-22 · strength · a&lt;b&gt;"
    (failure,) = render(Failure(text="model down & out"), CONV)
    assert failure.blocks[0]["text"]["text"] == "⚠️ model down &amp; out"
    long = plain("line\n" * 2_000)
    assert all(block_errors(m.blocks) is None for m in long)


def test_every_outcome_escapes_what_data_or_the_model_wrote_in_text_and_blocks() -> None:
    live = "<!channel> & <!here> <https://evil.example|click>"
    cites = [Citation(title=live, ref="entry:1", on=date(2026, 11, 20)), Citation(title=live, ref="kb:progression")]
    outcomes = [
        Answer(text=f"Well done. {live}", citations=cites, partial=True),
        Logged(entries=[LoggedEntry(entry_id="1", on=date(2026, 11, 22), domain="strength", summary=live)]),
        Ask(
            interrupt_id="a1",
            questions=[Question(text=live, options=[live])],
            why=live,
            if_declined=live,
            asked_by="slack:T1:U1",
        ),
        ApprovalRequest(
            interrupt_id="p1", title=live, plan={}, summary=live, confidence=0.5, evidence=cites, asked_by="slack:T1:U1"
        ),
        Failure(text=live),
        Notice(text=live),
    ]
    for outcome in outcomes:
        for message in render(outcome, CONV):
            marked = [message.text, *_markup(message.blocks)]
            assert "&lt;!channel&gt;" in message.text, (outcome.kind, message.text)
            assert not [t for t in marked if "<!channel>" in t or "<!here>" in t or "<https://evil" in t], outcome.kind


def _markup(node: object) -> list[str]:
    """Every mrkdwn and markdown text in blocks (button labels are plain_text, never parsed)."""
    if isinstance(node, list):
        return [t for item in node for t in _markup(item)]
    if isinstance(node, dict):
        own = [str(node["text"])] if node.get("type") in ("mrkdwn", "markdown") else []
        return own + [t for value in node.values() for t in _markup(value)]
    return []


def test_a_plans_sources_show_no_internal_reference_and_a_correction_reads_as_one() -> None:
    """Before: a rule line showed as "… — domain:strength#R3"; a correction was confirmed as "✓ Logged"."""
    req = ApprovalRequest(
        interrupt_id="p1",
        title="Bench",
        plan={},
        summary="- add sessions",
        confidence=0.9,
        asked_by="slack:T1:U1",
        evidence=[
            Citation(title="Add a small jump", ref="domain:strength#R3"),
            Citation(title="Deload", ref="article:d#2"),
        ],
    )
    context = approval(req, CONV).blocks[1]["elements"][0]["text"]
    assert "domain:" not in context and "article:" not in context and "Add a small jump" in context
    fixed = Logged(
        entries=[
            LoggedEntry(
                entry_id="1",
                on=date(2026, 11, 22),
                domain="strength",
                summary="bench press 60 kg × 10 reps × 5 sets",
                action="corrected",
            )
        ]
    )
    message = render(fixed, CONV)
    assert message is not None
    (first,) = [m.text for m in (message if isinstance(message, list) else [message])][:1]
    assert first.startswith("✓ Corrected 2026-11-22"), first
