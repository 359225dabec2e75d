"""The words around a chart, shared by every platform: caption, cut, the note when the picture is gone."""

from __future__ import annotations

from pathlib import Path

from adapters.common.charts import caption_text, cut, filename, gone_text, read_png
from tests.helpers.charts import bench_chart, write_png


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_cut_keeps_what_fits_and_cuts_a_long_word_only_when_there_is_no_break() -> None:
    assert cut("abc def", 7) == "abc def"  # exactly the limit: untouched
    assert cut("abc defgh", 8) == "abc…"  # the second word does not fit whole
    assert cut("x" * 20, 10) == "x" * 9 + "…"  # no break at all: cut inside, still within the limit
    assert cut("line one\nline two", 12) == "line one…"  # a line break is preferred to a space
    # An emoji is two UTF-16 units: it never ends up split in half.
    assert cut("🏆🏆🏆🏆", 6, utf16) == "🏆🏆…"


def test_the_caption_names_the_title_once(tmp_path: Path) -> None:
    chart = bench_chart(tmp_path / "c.png", caption="Bench press: estimated 1RM per session — best 75 kg")
    assert caption_text(chart) == "Bench press: estimated 1RM per session — best 75 kg"
    assert caption_text(chart.model_copy(update={"caption": ""})) == "Bench press: estimated 1RM per session"
    assert filename(chart) == "c.png"


def test_the_note_for_a_gone_picture_is_in_the_persons_language(tmp_path: Path) -> None:
    chart = bench_chart(tmp_path / "gone.png", caption="최고 75 kg", language="ko")
    assert (
        gone_text(chart) == "(차트 그림을 더 이상 찾을 수 없어 수치만 보내요.)\n벤치프레스: 세션별 추정 1RM\n최고 75 kg"
    )


async def test_the_picture_is_read_whole_or_not_at_all(tmp_path: Path) -> None:
    png = write_png(tmp_path / "c.png")
    assert await read_png(bench_chart(tmp_path / "c.png")) == png
    assert await read_png(bench_chart(tmp_path / "gone.png")) is None
    assert await read_png(bench_chart(tmp_path)) is None  # a folder, not a file
