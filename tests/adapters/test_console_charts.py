"""A chart in the console: its figures, then the path of the PNG the engine wrote (there is no picture to show)."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console import ConsoleChat
from engine import Answer
from tests.helpers.charts import Charting, bench_chart, write_png


async def chat(engine: Charting, line: str) -> str:
    out = io.StringIO()
    await ConsoleChat(engine, "kim", stdin=io.StringIO(line + "\n"), stdout=out).run()
    return out.getvalue()


async def test_a_chart_prints_its_title_figures_and_path_once(tmp_path: Path) -> None:
    path = tmp_path / "data" / "charts" / "bench-e1rm.png"
    write_png(path)
    text = await chat(Charting(bench_chart(path), Answer(text="Up 12.5 kg.")), "show my bench progress")
    expected = (
        "Bench press: estimated 1RM per session\n"
        "First 60 kg (2026-01-05) · latest 72.5 kg (2026-03-30) · best 75 kg (2026-03-16) · +12.5 kg\n"
        f"  Chart: {path}\n"
        "Up 12.5 kg.\n"
    )
    assert expected in text
    assert text.count(str(path)) == 1


async def test_a_korean_chart_is_labelled_in_korean(tmp_path: Path) -> None:
    path = tmp_path / "charts" / "벤치.png"
    write_png(path)
    text = await chat(Charting(bench_chart(path, caption="최고 75 kg", language="ko")), "지난 3개월 벤치 그래프")
    assert f"벤치프레스: 세션별 추정 1RM\n최고 75 kg\n  차트: {path}\n" in text
