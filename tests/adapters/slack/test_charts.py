"""A chart in Slack: the PNG uploaded into the thread the answer goes to, as slack_sdk's files_upload_v2 does.

The real app (worker and gateway processes) against the fake Web API; the
engine is a stand-in that answers every message with a `Chart` of a PNG
written here (`tests.helpers.charts`). The picture crosses the pipe between
the two processes, so what the fake received is what left the file.
"""

from __future__ import annotations

from pathlib import Path

from adapters.slack.store import SlackStore
from engine import Answer, Message
from tests.fakes.slack_api import FakeSlack
from tests.helpers.charts import Charting, bench_chart, write_png
from tests.helpers.slack import ANN, CHANNEL, DM, running

TITLE = "Bench press: estimated 1RM per session"
ALT = "A line rising from 60 to 75 kg between January and March, with a dip to 72.5 kg at the end."
UPLOAD = ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"]


def upload_calls(slack: FakeSlack) -> list[str]:
    return [c.method for c in slack.calls() if c.method in (*UPLOAD, "chat.postMessage")]


async def test_a_mention_gets_its_chart_uploaded_into_its_thread(slack: FakeSlack, tmp_path: Path) -> None:
    png = write_png(tmp_path / "data" / "charts" / "bench-e1rm.png", 640, 400)
    chart = bench_chart(tmp_path / "data" / "charts" / "bench-e1rm.png", caption="best 75 kg <!channel> & more")
    async with running(slack, Charting(chart, Answer(text="Up 12.5 kg.")), tmp_path / "data") as ws:
        ts = await ws.mention("show my bench progress")
        (answer,) = ws.thread(ts)
    (upload,) = slack.files
    assert upload["content"] == png and upload["length"] == len(png)
    assert upload["filename"] == "bench-e1rm.png" and upload["title"] == TITLE and upload["alt_txt"] == ALT
    assert (upload["channel"], upload["thread_ts"]) == (CHANNEL, ts)
    assert upload["comment"] == "best 75 kg &lt;!channel&gt; &amp; more"  # escaped: it pings no one
    assert answer.text == "Up 12.5 kg."
    # The three steps of files_upload_v2, before the answer that followed the chart: order kept.
    assert upload_calls(slack) == [*UPLOAD, "chat.postMessage"]
    assert slack.errors == []


async def test_a_chart_in_a_direct_message_goes_where_its_answer_goes(slack: FakeSlack, tmp_path: Path) -> None:
    write_png(tmp_path / "c.png")
    async with running(slack, Charting(bench_chart(tmp_path / "c.png"), Answer(text="ok")), tmp_path / "data") as ws:
        await ws.post("지난 3개월 벤치 그래프", channel=DM)
    (upload,) = slack.files
    (post,) = slack.calls("chat.postMessage")
    assert (upload["channel"], upload["thread_ts"]) == (DM, post.params.get("thread_ts"))


async def test_a_korean_caption_and_a_long_alt_text_arrive_as_slack_takes_them(
    slack: FakeSlack, tmp_path: Path
) -> None:
    write_png(tmp_path / "c.png")
    caption = "처음 60 kg · 최근 72.5 kg · 최고 75 kg (3월 16일) · +12.5 kg 🏋️"
    chart = bench_chart(tmp_path / "c.png", caption=caption, language="ko").model_copy(
        update={"alt": "선이 오른다. " * 200}  # 8 characters each: 1,600
    )
    async with running(slack, Charting(chart), tmp_path / "data") as ws:
        await ws.mention("지난 3개월 벤치 그래프")
    (upload,) = slack.files
    assert upload["comment"] == caption and upload["title"] == "벤치프레스: 세션별 추정 1RM"
    # Cut at 1,000 characters, after a whole word: 999 before "…" hold 124 repeats and "선이 오른다." (7).
    assert len(upload["alt_txt"]) <= 1000 and upload["alt_txt"].endswith("오른다.…")
    assert upload["alt_txt"] == "선이 오른다. " * 124 + "선이 오른다.…"


async def test_a_chart_whose_file_is_gone_sends_its_figures_in_the_thread(slack: FakeSlack, tmp_path: Path) -> None:
    chart = bench_chart(tmp_path / "gone.png", caption="best 75 kg")
    async with running(slack, Charting(chart), tmp_path / "data") as ws:
        ts = await ws.mention("show my bench progress")
        (said,) = ws.thread(ts)
    assert slack.calls("files.getUploadURLExternal") == []
    assert said.shown() == f"(The chart picture is no longer available; here are its figures.)\n{TITLE}\nbest 75 kg"


async def test_where_almanac_is_not_a_member_the_chart_goes_to_the_members_dms(
    slack: FakeSlack, tmp_path: Path
) -> None:
    png = write_png(tmp_path / "c.png")
    slack.not_in_channel.add("C0PRIVATE")
    async with running(slack, Charting(bench_chart(tmp_path / "c.png")), tmp_path / "data") as ws:
        await ws.slash("ask show my bench progress", channel="C0PRIVATE")
    tried = [c.params.get("channel_id") for c in slack.calls("files.completeUploadExternal")]
    assert tried == ["C0PRIVATE", "D0ANN"]
    (done,) = slack.files
    assert done["channel"] == "D0ANN" and done["thread_ts"] is None and done["content"] == png
    assert ws.ephemeral_texts()[-1] == "Your chart is in your direct messages with me."


async def test_a_chart_asked_for_privately_goes_to_the_members_dms_not_the_channel(
    slack: FakeSlack, tmp_path: Path
) -> None:
    """A slash command's control answers privately (ephemeral); an ephemeral message cannot carry a file."""
    write_png(tmp_path / "c.png")
    async with running(slack, Charting(bench_chart(tmp_path / "c.png")), tmp_path / "data") as ws:
        await ws.slash("status")
    (upload,) = slack.files
    assert upload["channel"] == "D0ANN" and upload["thread_ts"] is None
    assert slack.messages(CHANNEL) == []
    assert ws.ephemeral_texts()[-1] == "Your chart is in your direct messages with me."


async def test_a_request_run_again_after_a_crash_uploads_the_chart_from_its_path(
    slack: FakeSlack, tmp_path: Path
) -> None:
    """The engine ran the post, then the process died before the upload: the intake row is still pending,
    the next start runs it, the engine gives back what it kept (as JSON), and the file is read again."""
    data = tmp_path / "data"
    data.mkdir()
    png = write_png(data / "charts" / "bench.png")
    ts = "1800000000.000100"
    store = await SlackStore.open(data / "slack.db")
    place = {"team": "T0ALMANAC", "channel": CHANNEL, "thread_ts": ts, "user": ANN}
    spec = {"kind": "post", "place": place, "text": "show my bench progress", "ts": ts, "at": 1_800_000_000.0}
    await store.accept(["event:Ev0CRASHED"], f"slack:T0ALMANAC:{CHANNEL}:{ts}:{ANN}", spec)
    await store.close()
    engine = Charting(bench_chart(data / "charts" / "bench.png"))
    conversation = f"slack:T0ALMANAC:{CHANNEL}:{ts}:{ANN}"
    await engine.handle(Message(conversation=conversation, user=f"slack:T0ALMANAC:{ANN}", text="x", message_id=ts))
    engine.outcomes = []  # a second run would show nothing: only what was kept can upload the chart
    async with running(slack, engine, data) as ws:
        await ws.settle()
    (upload,) = slack.files
    assert upload["content"] == png and (upload["channel"], upload["thread_ts"]) == (CHANNEL, ts)


async def test_a_rate_limited_upload_is_kept_and_completed_once(slack: FakeSlack, tmp_path: Path) -> None:
    png = write_png(tmp_path / "c.png")
    slack.rate_limit("files.completeUploadExternal", times=5, retry_after=0)
    async with running(slack, Charting(bench_chart(tmp_path / "c.png")), tmp_path / "data") as ws:
        await ws.mention("show my bench progress")
    (upload,) = slack.files
    assert upload["content"] == png
    # The client tries each call 4 times (3 retries): the first upload gives up after 4 refusals and is
    # kept, the second is refused once more and then completes.
    assert len(slack.calls("files.completeUploadExternal")) == 6
    assert len(slack.calls("files.getUploadURLExternal")) == 2
