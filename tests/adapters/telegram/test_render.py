"""Telegram rendering without a network: escaping, splitting, callback data, keyboards."""

from __future__ import annotations

import random
from datetime import date

import pytest

from adapters.telegram.keyboards import Press
from adapters.telegram.render import esc, render
from adapters.telegram.splitting import split_html, to_plain, utf16_len
from engine import Answer, Ask, Citation, Document, Failure, Logged, LoggedEntry, Notice, Question
from tests.fakes.telegram_api import html_to_text

IID = "0123456789abcdef0123456789abcdef"  # interrupt ids are 32 hex characters


def test_engine_text_is_escaped_everywhere() -> None:
    nasty = "<b>not bold</b> & <script>"
    for outcome in (
        Notice(text=nasty),
        Failure(text=nasty),
        Answer(text=nasty),
        Logged(entries=[LoggedEntry(entry_id="1", on=date(2026, 11, 22), domain="<d>", summary=nasty)]),
        Ask(interrupt_id=IID, questions=[Question(text=nasty, options=[nasty])], why=nasty, if_declined=nasty),
    ):
        rendered = render(outcome)
        assert rendered is not None
        assert "<script>" not in rendered.html and nasty in html_to_text(rendered.html)
    assert render(Document(filename="a.csv", mime="text/csv", content="x")) is None


def test_answer_shows_cited_dates_sources_and_partial() -> None:
    answer = Answer(
        text="You benched 52.5 kg on 2026-11-15.",
        citations=[
            Citation(title="bench", ref="entry:1", on=date(2026, 11, 15)),
            Citation(title="bench", ref="entry:2", on=date(2026, 11, 22)),
            Citation(title="Overload & you", url="https://example.org/a?b=1&c=2"),
        ],
        partial=True,
    )
    rendered = render(answer)
    assert rendered is not None
    text = html_to_text(rendered.html)
    assert "From your entries of 2026-11-15, 2026-11-22" in text and "partial answer" in text
    assert '<a href="https://example.org/a?b=1&amp;c=2">Overload &amp; you</a>' in rendered.html


def test_ask_keyboard_has_a_button_per_choice_and_skip() -> None:
    ask = Ask(
        interrupt_id=IID,
        questions=[Question(text="Which?", options=["Bench press", "Squat", "A very long exercise name " * 3])],
        why="I need it.",
        if_declined="I'll keep a note.",
        asked_by="tg:4503599627370495",  # the largest Telegram user id: 2^52 - 1
    )
    rendered = render(ask, owner=4503599627370495)
    assert rendered is not None and rendered.keyboard is not None
    buttons = [b for row in rendered.keyboard.inline_keyboard for b in row]
    assert [b.text for b in buttons][:2] == ["Bench press", "Squat"] and buttons[-1].text == "Skip"
    assert len(buttons[2].text) <= 40
    for b in buttons:
        assert isinstance(b.callback_data, str) and len(b.callback_data.encode()) <= 64
        press = Press.parse(b.callback_data)
        assert press is not None and press.interrupt_id == IID and press.owner == 4503599627370495
    assert "If you skip: I'll keep a note." in html_to_text(rendered.html)


def test_callback_data_round_trips_and_rejects_strangers() -> None:
    for press in (
        Press("choice", IID, 4, 123),
        Press("skip", IID),
        Press("approve", IID, owner=-5),
        Press("revise", IID),
        Press("cancel", IID, owner=1),
        Press("forget_yes", owner=42),
        Press("forget_no", owner=42),
    ):
        assert Press.parse(press.data()) == press
    for junk in (None, "", "x", "a:", "a:abc", "a:zz!:1", "f:y", "f:y:me", "p:" + "a" * 57, "s:abc:1:2", "a" * 65):
        assert Press.parse(junk) is None
    # An id too long to leave room for the owner drops the owner (the engine still checks).
    long_id = "b" * 48
    assert Press.parse(Press("choice", long_id, 1, 4503599627370495).data()) == Press("choice", long_id, 1)


def test_split_respects_the_limit_in_utf16_units() -> None:
    text = esc("💪" * 3000)  # 6000 units, 3000 characters
    parts = split_html(text)
    assert len(parts) == 2 and all(utf16_len(p) <= 4096 for p in parts)
    assert "".join(parts) == text  # no emoji was cut in half


def test_split_never_cuts_a_tag_or_an_entity_and_reopens_tags() -> None:
    body = (
        "<b>" + esc("a&b <c> " * 800) + "</b>\n" + '<a href="https://x.org/?q=1&amp;r=2">' + esc("link " * 400) + "</a>"
    )
    parts = split_html(body, limit=1000)
    assert len(parts) > 4
    for part in parts:
        assert utf16_len(part) <= 1000
        html_to_text(part)  # raises on a broken tag, a cut entity or an unclosed element
    assert "".join(html_to_text(p) for p in parts) == html_to_text(body)


@pytest.mark.parametrize("seed", range(20))
def test_split_random_documents(seed: int) -> None:
    rng = random.Random(seed)
    words = ["bench", "스쿼트", "💪🏽", "a&b", "<x>", "é", "\n", "\n\n", "5×5", "𝔘", "  "]
    chunks = []
    for _ in range(rng.randint(50, 900)):
        word = esc(rng.choice(words))
        tag = rng.choice(["", "", "", "b", "i", "code"])
        chunks.append(f"<{tag}>{word}</{tag}>" if tag else word)
        chunks.append(" ")
    html = "".join(chunks)
    limit = rng.choice([50, 200, 4096])
    parts = split_html(html, limit)
    assert all(utf16_len(p) <= limit for p in parts)
    assert "".join(html_to_text(p) for p in parts).split() == html_to_text(html).split()


def test_plain_fallback_strips_markup_and_unescapes() -> None:
    assert to_plain("<b>Sets &lt;5&gt; &amp; reps</b>") == "Sets <5> & reps"


def test_a_plans_sources_show_no_internal_reference() -> None:
    """A rule line or an article is named by its title (and its file, when it has one), never by the
    engine's own reference ("domain:strength#R3", "article:deload#2")."""
    from engine import ApprovalRequest

    request = ApprovalRequest(
        interrupt_id=IID,
        title="Bench, four weeks",
        plan={},
        summary="Two sessions a week.",
        confidence=0.9,
        evidence=[
            Citation(title="Add a small jump once every set is done", ref="domain:strength#R3"),
            Citation(title="Deload", ref="article:deload#2", url="strength/deload.md"),
        ],
    )
    rendered = render(request)
    assert rendered is not None
    text = html_to_text(rendered.html)
    assert "domain:" not in text and "article:" not in text, text
    assert "Add a small jump once every set is done" in text and "Deload — strength/deload.md" in text


def test_an_answer_in_korean_has_korean_notes() -> None:
    answer = Answer(
        text="벤치프레스 세션 수 (2021년 3월): 2회.",
        partial=True,
        language="ko",
        citations=[Citation(title="bench", ref="entry:1", on=date(2021, 3, 2))],
    )
    rendered = render(answer)
    assert rendered is not None
    text = html_to_text(rendered.html)
    assert "partial" not in text and "From your entries" not in text, text
    assert "일부만 답했어요" in text and "2021-03-02 기록에서" in text
