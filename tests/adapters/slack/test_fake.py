"""The fake Slack Web API itself, driven by slack_sdk's real async client."""

from __future__ import annotations

import asyncio

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from tests.fakes.slack_api import BOT_USER, TEAM, TOKEN, FakeSlack
from tests.fakes.slack_signing import signature


async def test_auth_post_update_and_token_check(slack: FakeSlack) -> None:
    client = AsyncWebClient(token=TOKEN, base_url=slack.api_url)
    auth = await client.auth_test()
    assert (auth["team_id"], auth["user_id"]) == (TEAM, BOT_USER)
    sent = await client.chat_postMessage(channel="C1", text="hi", blocks=[{"type": "markdown", "text": "**hi**"}])
    await client.chat_update(channel="C1", ts=sent["ts"], text="bye", blocks=[])
    assert slack.message("C1", sent["ts"]).text == "bye" and slack.message("C1", sent["ts"]).edits == 1
    with pytest.raises(SlackApiError) as bad:
        await AsyncWebClient(token="xoxb-wrong", base_url=slack.api_url).auth_test()
    assert bad.value.response["error"] == "invalid_auth"
    assert [c.method for c in slack.calls()] == ["auth.test", "chat.postMessage", "chat.update", "auth.test"]


async def test_rejects_what_slack_rejects(slack: FakeSlack) -> None:
    client = AsyncWebClient(token=TOKEN, base_url=slack.api_url)
    with pytest.raises(SlackApiError) as long:
        await client.chat_postMessage(channel="C1", text="x", blocks=[{"type": "markdown", "text": "x" * 12_001}])
    assert long.value.response["error"] == "msg_blocks_too_long"
    button = {"type": "button", "text": {"type": "plain_text", "text": "y" * 76}, "action_id": "a"}
    with pytest.raises(SlackApiError) as wide:
        await client.chat_postMessage(channel="C1", text="x", blocks=[{"type": "actions", "elements": [button]}])
    assert wide.value.response["error"] == "invalid_blocks"
    slack.not_in_channel.add("C9")
    with pytest.raises(SlackApiError) as away:
        await client.chat_postMessage(channel="C9", text="x")
    assert away.value.response["error"] == "not_in_channel"


async def test_429_with_retry_after_is_retried_by_the_sdk_handler(slack: FakeSlack) -> None:
    slack.rate_limit("chat.postMessage", times=2, retry_after=0)
    client = AsyncWebClient(
        token=TOKEN, base_url=slack.api_url, retry_handlers=[AsyncRateLimitErrorRetryHandler(max_retry_count=2)]
    )
    await client.chat_postMessage(channel="C1", text="after the wait")
    assert len(slack.calls("chat.postMessage")) == 3
    assert [m.text for m in slack.messages("C1")] == ["after the wait"]
    slack.rate_limit("chat.postMessage", times=1, retry_after=0)
    with pytest.raises(SlackApiError) as limited:
        await AsyncWebClient(token=TOKEN, base_url=slack.api_url, retry_handlers=[]).chat_postMessage(
            channel="C1", text="x"
        )
    assert limited.value.response.status_code == 429 and limited.value.response.headers["Retry-After"] == "0"


async def test_files_upload_v2_three_steps_views_and_reactions(slack: FakeSlack) -> None:
    client = AsyncWebClient(token=TOKEN, base_url=slack.api_url)
    dm = await client.conversations_open(users="U1")
    await client.files_upload_v2(channel=dm["channel"]["id"], filename="a.csv", content=b"x,y\n1,2\n", title="a.csv")
    (upload,) = slack.files
    assert upload["content"] == b"x,y\n1,2\n" and upload["channel"] == "D1"
    assert [c.method for c in slack.calls()][-3:] == [
        "files.getUploadURLExternal",
        "upload",
        "files.completeUploadExternal",
    ]
    view = await client.views_open(
        trigger_id="t1", view={"type": "modal", "title": {"type": "plain_text", "text": "T"}}
    )
    assert view["view"]["id"] in slack.views
    await client.reactions_add(channel="C1", timestamp="1.0", name="eyes")
    assert slack.reactions == {("C1", "1.0", "eyes")}
    await client.reactions_remove(channel="C1", timestamp="1.0", name="eyes")
    assert slack.reactions == set()
    assert (await client.users_info(user="U1"))["user"]["tz"] == "Asia/Seoul"


async def test_concurrent_posts_get_distinct_timestamps(slack: FakeSlack) -> None:
    client = AsyncWebClient(token=TOKEN, base_url=slack.api_url)
    sent = await asyncio.gather(*(client.chat_postMessage(channel="C1", text=str(i)) for i in range(30)))
    assert len({s["ts"] for s in sent}) == 30


def test_signature_matches_slack_sdk_verifier() -> None:
    from slack_sdk.signature import SignatureVerifier

    body, ts = b"token=x&command=%2Falmanac", "1700000000"
    verifier = SignatureVerifier("secret", clock=type("C", (), {"now": staticmethod(lambda: 1700000000.0)})())
    assert verifier.is_valid(body, ts, signature("secret", ts, body))
    assert not verifier.is_valid(body, ts, signature("other", ts, body))
