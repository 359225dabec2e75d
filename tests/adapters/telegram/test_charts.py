"""A chart in Telegram: a photo (sendPhoto, multipart) with its caption, where the answer goes.

Real application, fake Bot API; the engine is a stand-in that answers every
message with a `Chart` of a PNG written here (`tests.helpers.charts`).
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from telegram import Message as TgMessage

from engine import Answer, Message
from tests.fakes.telegram_api import FakeTelegram
from tests.helpers.charts import Charting, bench_chart, write_png
from tests.helpers.telegram import CHAT, USER, running

TITLE = "Bench press: estimated 1RM per session"
FIGURES = "First 60 kg (2026-01-05) · latest 72.5 kg (2026-03-30) · best 75 kg (2026-03-16) · +12.5 kg"


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


async def test_a_chart_arrives_as_a_photo_with_its_exact_bytes_and_caption(tg: FakeTelegram, tmp_path: Path) -> None:
    png = write_png(tmp_path / "charts" / "bench-e1rm.png", 640, 400)
    async with running(tg, Charting(bench_chart(tmp_path / "charts" / "bench-e1rm.png"))) as bot:
        (photo,) = await bot.say("show my bench progress")
    assert photo.photo == ("bench-e1rm.png", png)
    assert photo.text == f"{TITLE}\n{FIGURES}"
    assert photo.size == (640, 400)
    (call,) = tg.calls("sendPhoto")
    assert call.params["chat_id"] == CHAT and "parse_mode" not in call.params  # plain text: nothing to escape
    assert tg.methods().count("sendMessage") == 0  # not rendered a second time as text


def test_the_fake_answers_with_a_photo_size_list_python_telegram_bot_reads(tg: FakeTelegram, tmp_path: Path) -> None:
    png = write_png(tmp_path / "c.png", 1000, 500)
    status, body = tg._call("sendPhoto", {"chat_id": 7, "photo": ("c.png", png), "caption": "x"})
    assert status == 200
    message = TgMessage.de_json(body["result"], None)
    assert message is not None and message.caption == "x"
    # Smaller copies with the longest side 90, 320, 800, then the picture itself, smallest first.
    assert [(p.width, p.height) for p in message.photo] == [(90, 45), (320, 160), (800, 400), (1000, 500)]
    assert message.photo[-1].file_size == len(png)
    assert tg._call("sendPhoto", {"chat_id": 7, "photo": ("c.png", b"GIF89a....")})[0] == 400


async def test_in_a_group_the_chart_quotes_the_message_it_answers_and_only_it_does(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    write_png(tmp_path / "c.png")
    group, ann = -100700, 1
    engine = Charting(bench_chart(tmp_path / "c.png"), Answer(text="Your bench went up."))
    async with running(tg, engine) as bot:
        update = tg.message(group, ann, "show my bench progress", mention=True)
        await bot.feed(update)
        photo, answer = bot.after(group, update["message"]["message_id"])
    assert photo.photo is not None and photo.reply_to == update["message"]["message_id"]
    assert answer.text == "Your bench went up." and answer.reply_to is None


async def test_a_forum_topic_gets_the_chart_in_its_topic(tg: FakeTelegram, tmp_path: Path) -> None:
    write_png(tmp_path / "c.png")
    tg.set_chat_type(-100800, "forum")
    async with running(tg, Charting(bench_chart(tmp_path / "c.png"))) as bot:
        update = tg.message(-100800, 1, "show my bench progress", mention=True, topic=77)
        await bot.feed(update)
    (photo,) = bot.after(-100800, update["message"]["message_id"])
    assert photo.thread_id == 77


async def test_a_turn_given_back_after_a_restart_sends_the_chart_again_from_its_path(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The engine ran the turn, then the process died before the photo went out: Telegram delivers the
    update again, the engine gives back the outcomes it kept (as JSON), and the picture is read again."""
    path = tmp_path / "data" / "charts" / "bench.png"
    png = write_png(path)
    engine = Charting(bench_chart(path))
    update = tg.message(CHAT, USER, "show my bench progress")
    message_id = str(update["message"]["message_id"])
    turn = Message(conversation=f"tg:{CHAT}", user=f"tg:{USER}", text="x", message_id=message_id)
    await engine.handle(turn.model_copy(update={"at": datetime.now(timezone.utc)}))  # before the crash
    engine.outcomes = []  # a second run would show nothing: only what was kept can send the chart
    async with running(tg, engine) as bot:
        await bot.feed(update)
    (photo,) = tg.sent(CHAT)
    assert photo.photo == ("bench.png", png) and photo.text.startswith(TITLE)


async def test_a_chart_whose_file_is_gone_sends_its_figures_as_text(tg: FakeTelegram, tmp_path: Path) -> None:
    chart = bench_chart(tmp_path / "charts" / "deleted.png", caption="First 60 kg · best 75 kg < 80 kg & rising")
    async with running(tg, Charting(chart)) as bot:
        (said,) = await bot.say("show my bench progress")
    assert tg.calls("sendPhoto") == []
    assert said.text == (
        "(The chart picture is no longer available; here are its figures.)\n"
        f"{TITLE}\nFirst 60 kg · best 75 kg < 80 kg & rising"
    )
    assert said.html is not None  # sent as HTML, escaped: the "<" and "&" did not break it


async def test_a_korean_caption_with_markup_characters_arrives_exactly(tg: FakeTelegram, tmp_path: Path) -> None:
    write_png(tmp_path / "c.png")
    caption = "처음 60 kg (1월 5일) · 최근 72.5 kg · 최고 75 kg · <b>+12.5 kg</b> & 🏋️ 꾸준히 상승"
    chart = bench_chart(tmp_path / "c.png", caption=caption, language="ko")
    async with running(tg, Charting(chart)) as bot:
        (photo,) = await bot.say("지난 3개월 벤치 그래프")
    assert photo.text == f"벤치프레스: 세션별 추정 1RM\n{caption}"


async def test_a_caption_over_telegrams_limit_is_cut_at_a_word_within_1024_utf16_units(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """1,000 characters can be 2,000 UTF-16 units (emoji are two each); Telegram would refuse the photo."""
    write_png(tmp_path / "c.png")
    words = " ".join(["🏆 최고 75 kg"] * 120)  # a word: 10 characters, 11 UTF-16 units (🏆 is two)
    chart = bench_chart(tmp_path / "c.png", caption=words[:1000])
    async with running(tg, Charting(chart)) as bot:
        (photo,) = await bot.say("show my bench progress")
    assert photo.photo is not None
    assert utf16(photo.text) <= 1024 and photo.text.endswith("kg…")  # cut after a whole word
    # Room for 1023 units before "…": the title and its newline take 38 + 1, leaving 984 = 82 words
    # with a space each; the 83rd word's 🏆 does not fit, so the cut falls on the space after the 82nd.
    assert photo.text == f"{TITLE}\n" + " ".join(["🏆 최고 75 kg"] * 82) + "…"
    assert utf16(photo.text) == 39 + 82 * 11 + 81 + 1


async def test_flood_control_keeps_the_photo_and_sends_it_when_allowed(tg: FakeTelegram, tmp_path: Path) -> None:
    png = write_png(tmp_path / "c.png")
    tg.fail("sendPhoto", 429, "Too Many Requests: retry after 1", retry_after=1, times=4)
    async with running(tg, Charting(bench_chart(tmp_path / "c.png")), keep_replies_s=60.0) as bot:
        (photo,) = await bot.say("show my bench progress")
    assert photo.photo is not None and photo.photo[1] == png
    assert len(tg.calls("sendPhoto")) == 5


async def test_a_picture_telegram_refuses_as_a_photo_still_arrives_as_a_file(tg: FakeTelegram, tmp_path: Path) -> None:
    """Width and height may sum to 10,000 at most in a photo; a document has no such limit."""
    png = write_png(tmp_path / "wide.png", 9000, 1200)
    async with running(tg, Charting(bench_chart(tmp_path / "wide.png"))) as bot:
        (sent,) = await bot.say("show my bench progress for ten years")
    sends = ("sendPhoto", "sendDocument", "sendMessage")
    assert [c.method for c in tg.calls() if c.method in sends] == ["sendPhoto", "sendDocument"]
    assert sent.document == ("wide.png", png) and sent.text.startswith(TITLE)
