"""The fake Telegram Bot API itself: it must speak the Bot API as the real client expects.

Every other Telegram test runs the real application against this fake (the
harness is ``tests/helpers/telegram.py``), so the fake is tested first.
"""

from __future__ import annotations

import pytest
from telegram.error import BadRequest, InvalidToken, RetryAfter
from telegram.ext import Application

from tests.fakes.telegram_api import FakeTelegram, html_to_text


def test_html_check_matches_telegram_rules() -> None:
    assert html_to_text("<b>a &amp; b</b> &lt;3") == "a & b <3"
    for bad in ("<b>open", "a < b", "AT&T", "<div>x</div>", "<b><i>x</b></i>"):
        with pytest.raises(Exception, match="can't parse entities"):
            html_to_text(bad)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # PTB's own RetryAfter message, v22.2
async def test_fake_speaks_the_bot_api_to_the_real_client(tg: FakeTelegram) -> None:
    app = Application.builder().token(tg.token).base_url(tg.base_url).build()
    async with app:
        me = await app.bot.get_me()
        assert me.username == tg.username
        sent = await app.bot.send_message(7, "<b>hi</b> &amp; bye", parse_mode="HTML")
        assert tg.get(7, sent.message_id).text == "hi & bye"
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
            await app.bot.send_message(7, "<b>unclosed", parse_mode="HTML")
        with pytest.raises(BadRequest, match="too long"):
            await app.bot.send_message(7, "😀" * 2049)  # 4098 UTF-16 units
        tg.fail("sendMessage", 429, "Too Many Requests: retry after 3", retry_after=3)
        with pytest.raises(RetryAfter):
            await app.bot.send_message(7, "x")
        tg.enqueue(tg.message(7, 7, "hello"))
        updates = await app.bot.get_updates(timeout=1)
        assert [u.message.text for u in updates if u.message] == ["hello"]
        again = await app.bot.get_updates(timeout=1)  # not confirmed yet: delivered again, as Telegram does
        assert [u.update_id for u in again] == [updates[0].update_id]
        assert (
            await app.bot.get_updates(offset=updates[0].update_id + 1, timeout=5) == ()
        )  # the fake long-polls only briefly
    bad = Application.builder().token("1:wrong").base_url(tg.base_url).build()
    with pytest.raises(InvalidToken):
        await bad.bot.get_me()
