"""Pictures and captions from hand-made series: Korean labels draw with no missing glyph (a warning is
an error here), the file is a real PNG of the size drawn, and the caption says the series' numbers."""

from __future__ import annotations

import io
import warnings
from datetime import date, timedelta

import pytest
from PIL import Image

from engine.charts import draw, figures
from engine.charts.model import BoutPoint, ChartAsk, LiftSeries, LiftSession
from engine.charts.series import bodyweight_series, cardio_series, days_series, volume_series

PNG = b"\x89PNG\r\n\x1a\n"
ASK = ChartAsk("lift", ("bench press",), date(2026, 9, 1), date(2026, 10, 31))


def _session(day: int, month: int, e1rm: float, top: float, reps: int, pr: bool) -> LiftSession:
    return LiftSession(date(2026, month, day), e1rm, top, reps, top, reps, pr)


BENCH = LiftSeries(
    "bench press",
    "kg",
    (
        _session(1, 9, 70.0, 62.5, 3, False),
        _session(8, 9, 75.0, 65.0, 5, True),
        _session(15, 9, 77.0, 70.0, 3, True),
        _session(6, 10, 72.5, 65.0, 3, False),
    ),
)


def _opened(png: bytes) -> Image.Image:
    assert png[:8] == PNG and len(png) > 1000
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.filterwarnings("error")
def test_korean_labels_draw_with_no_missing_glyph() -> None:
    warnings.simplefilter("error")  # a "Glyph … missing from font" UserWarning fails the test
    f = figures.lift_figures(BENCH, "벤치프레스", ASK, "ko")
    assert f.title == "벤치프레스: 세션별 추정 1RM과 탑 세트"
    image = _opened(draw.draw_lift(BENCH, f))
    assert image.size == (900, 500) and image.format == "PNG"
    days = days_series([date(2026, 9, 1) + timedelta(days=i) for i in range(0, 61, 3)], ASK.start, ASK.end)
    _opened(draw.draw_days(days, figures.days_figures(days, ASK, "ko")))
    runs = cardio_series("running", "km", 1, [BoutPoint(date(2026, 9, 10), 5.0, 300.0)], ASK.start, ASK.end)
    _opened(draw.draw_cardio(runs, figures.cardio_figures(runs, "러닝", "/km", ASK, "ko"), "/km"))
    weights = bodyweight_series([(date(2026, 9, 1), 80.0, "kg"), (date(2026, 10, 1), 78.5, "kg")], ASK.start, ASK.end)
    _opened(draw.draw_bodyweight(weights, figures.bodyweight_figures(weights, ASK, "ko")))
    volumes = [("squat", date(2026, 9, 2), 500.0), ("bench press", date(2026, 9, 3), 300.0)]
    volume = volume_series(["bench press", "squat"], volumes, {"kg"}, ASK.start, ASK.end)
    names = {"bench press": "벤치프레스", "squat": "스쿼트"}
    _opened(draw.draw_volume(volume, figures.volume_figures(volume, names, ASK, "ko"), names))


def test_the_lift_caption_gives_first_latest_best_and_change() -> None:
    en = figures.lift_figures(BENCH, "bench press", ASK, "en")
    assert en.caption.splitlines() == [
        "bench press, 2026-09-01 – 2026-10-31: 4 sessions.",
        "Estimated 1RM (Epley): first 70 kg (2026-09-01), latest 72.5 kg (2026-10-06), best 77 kg on 2026-09-15 "
        "(from 70 kg × 3), change +2.5 kg.",
        "Top set: first 62.5 kg × 3, latest 65 kg × 3, heaviest 70 kg × 3 on 2026-09-15.",
        "New best estimates: 2 (marked ▲).",
    ]
    ko = figures.lift_figures(BENCH, "벤치프레스", ASK, "ko")
    assert "최고 77 kg (2026년 9월 15일, 70 kg × 3회 기준), 변화 +2.5 kg" in ko.caption
    assert "rising from 70 kg to 72.5 kg" in en.alt and "2 new best estimates" in en.alt


def test_a_period_nobody_named_is_said() -> None:
    ask = ChartAsk("lift", ("bench press",), date(2025, 11, 23), date(2026, 11, 22), defaulted=True)
    assert "2025-11-23 – 2026-11-22 (the last 12 months; no period was named)" in (
        figures.lift_figures(BENCH, "bench press", ask, "en").caption
    )
    assert "(기간을 말하지 않아 최근 12개월)" in figures.lift_figures(BENCH, "벤치", ask, "ko").caption


def test_captions_of_the_other_kinds() -> None:
    runs = cardio_series(
        "running", "km", 1,
        [BoutPoint(date(2026, 9, 10), 5.0, 300.0), BoutPoint(date(2026, 9, 17), 10.0, 330.0)],
        ASK.start, ASK.end,
    )  # fmt: skip
    text = figures.cardio_figures(runs, "Running", "/km", ASK, "en").caption
    assert "2 times, 15 km in all" in text
    assert "best 10 km (week of 2026-09-14)" in text
    assert "Pace: first 5:00 /km (2026-09-10), latest 5:30 /km (2026-09-17), fastest 5:00 /km on 2026-09-10." in text
    weights = bodyweight_series([(date(2026, 9, 1), 80.0, "kg"), (date(2026, 10, 1), 176.0, "lb")], ASK.start, ASK.end)
    text = figures.bodyweight_figures(weights, ASK, "en").caption
    # The latest was in lb: the series is shown in lb (80 kg is 176.4 lb).
    assert "First 176.4 lb (2026-09-01), latest 176 lb (2026-10-01)" in text and "change −0.4 lb" in text


def test_a_caption_stays_under_telegrams_limit() -> None:
    many = {f"lift {i}": f"a very long name of lift number {i} " * 3 for i in range(40)}
    volume = volume_series(list(many), [(x, date(2026, 9, 2), 500.0) for x in many], {"kg"}, ASK.start, ASK.end)
    assert len(figures.volume_figures(volume, many, ASK, "en").caption) <= 1000
