"""A chart asked for, made: rows read from the database (async), then the series, its figures, the
picture and the file computed off the event loop (``asyncio.to_thread``), or a `Notice` in the person's
language when there is nothing to draw."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from types import ModuleType

import structlog

from engine.charts import figures
from engine.charts import texts as t
from engine.charts.asking import read_chart
from engine.charts.files import write_chart
from engine.charts.model import ChartAsk, Figures
from engine.charts.reads import ChartReads
from engine.charts.series import bodyweight_series, cardio_series, days_series, lift_series, volume_series
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.outcomes import Chart, Notice
from engine.query.render import Language, korean_names

log = structlog.get_logger("engine.charts")

Made = tuple[Figures, bytes] | None
"""The figures and the PNG, or None: nothing in the period to draw."""


def _starting(ask: ChartAsk, first: date | None) -> ChartAsk:
    """A chart of all time starts on the first day there is something to draw, not in the year 1."""
    return replace(ask, start=first) if first is not None and ask.start == date.min else ask


@dataclass(frozen=True, slots=True)
class Prepared:
    """A chart's rows, read; what is left is CPU and file work."""

    subject: str
    """What is drawn, in the person's language (for the notice when there is nothing)."""
    render: Callable[[], tuple[Figures, Path] | None]
    """Series, figures, picture and file; None when the period holds nothing to draw. Blocking: run it
    in a worker thread."""


async def prepare(
    ask: ChartAsk,
    reads: ChartReads,
    registry: DomainRegistry,
    user: str,
    out_dir: Path,
    lang: Language,
    spellings: Mapping[str, Iterable[str]] | None = None,
) -> Prepared:
    """Read the rows ``ask`` needs (async SQL); the rest is the returned `Prepared.render`."""
    spellings = spellings or {}
    names = korean_names(ask.subjects, spellings) if lang == "ko" else {}
    made: Callable[[ModuleType], Made]
    if ask.kind == "lift":
        lift = ask.subjects[0]
        name = names.get(lift, lift)
        rows = await reads.work_sets(user, [lift], ask.end)
        a = _starting(ask, rows[0].on if rows else None)

        def made_lift(draw: ModuleType) -> Made:
            s = lift_series(lift, rows, a.start, a.end)
            if not s.sessions:
                return None
            f = figures.lift_figures(s, name, a, lang)
            return f, draw.draw_lift(s, f)

        made, subject = made_lift, name
    elif ask.kind == "volume":
        lifts = list(ask.subjects) or await reads.top_lifts(user, ask.start, ask.end)
        names = korean_names(lifts, spellings) if lang == "ko" else {}
        days_kg, units = await reads.daily_volumes(user, lifts, ask.start, ask.end)
        a = _starting(ask, days_kg[0][1] if days_kg else None)
        subject = ", ".join(names.get(x, x) for x in lifts) or t.title("volume", "", lang)

        def made_volume(draw: ModuleType) -> Made:
            s = volume_series(lifts, days_kg, units, a.start, a.end)
            if not s.lifts:
                return None
            f = figures.volume_figures(s, names, a, lang)
            return f, draw.draw_volume(s, f, names)

        made = made_volume
    elif ask.kind == "days":
        days = await reads.training_days(user, ask.start, ask.end)
        a = _starting(ask, days[0] if days else None)
        subject = t.label("days", lang)

        def made_days(draw: ModuleType) -> Made:
            s = days_series(days, a.start, a.end)
            if not s.days:
                return None
            f = figures.days_figures(s, a, lang)
            return f, draw.draw_days(s, f)

        made = made_days
    elif ask.kind == "cardio":
        sport = ask.subjects[0]
        spec = registry.bouts[sport]
        subject = registry.labels(lang).get(sport, sport) if lang == "ko" else sport.capitalize()
        bouts = await reads.bouts(user, sport, ask.start, ask.end)
        a = _starting(ask, bouts[0].on if bouts else None)

        def made_cardio(draw: ModuleType) -> Made:
            s = cardio_series(sport, spec.distance_unit, spec.pace_per, bouts, a.start, a.end)
            if not s.bouts:
                return None
            f = figures.cardio_figures(s, subject, spec.pace_suffix, a, lang)
            return f, draw.draw_cardio(s, f, spec.pace_suffix)

        made = made_cardio
    else:
        readings = await reads.weigh_ins(user, ask.start, ask.end)
        a = _starting(ask, readings[0][0] if readings else None)
        subject = t.label("bodyweight", lang)

        def made_bodyweight(draw: ModuleType) -> Made:
            s = bodyweight_series(readings, a.start, a.end)
            if not s.points:
                return None
            f = figures.bodyweight_figures(s, a, lang)
            return f, draw.draw_bodyweight(s, f)

        made = made_bodyweight

    def render() -> tuple[Figures, Path] | None:
        # matplotlib is imported on the first chart, in this worker thread: never at start-up.
        from engine.charts import draw

        got = made(draw)
        if got is None:
            return None
        f, png = got
        return f, write_chart(out_dir, f"{ask.kind}-{'-'.join(ask.subjects)}", png)

    return Prepared(subject, render)


async def chart(
    ask: ChartAsk,
    reads: ChartReads,
    registry: DomainRegistry,
    user: str,
    out_dir: Path,
    lang: Language,
    spellings: Mapping[str, Iterable[str]] | None = None,
) -> Chart | Notice:
    """Draw ``ask`` for ``user`` into ``out_dir``: the rows read on the event loop, the rest off it.

    Args:
        spellings: Each canonical term's spellings (the vocabulary): a lift is named by its Korean one
            in a Korean chart.
    """
    prepared = await prepare(ask, reads, registry, user, out_dir, lang, spellings)
    done = await asyncio.to_thread(prepared.render)
    if done is None:
        first = ask.start if ask.start != date.min else None
        return Notice(text=t.no_data(prepared.subject, first, ask.end, lang), code="no_data")
    f, path = done
    log.info("chart.drawn", kind=ask.kind, subjects=list(ask.subjects), path=str(path))
    return Chart(path=str(path), title=f.title, caption=f.caption, alt=f.alt, language=lang)


async def chart_for_words(
    said: str,
    reads: ChartReads,
    ctx: ActiveDomainContext,
    registry: DomainRegistry,
    user: str,
    today: date,
    out_dir: Path,
    lang: Language,
) -> Chart | Notice:
    """``/chart <words>``: the chart the words name, or a Notice (``unknown_chart``) when they name none."""
    ask = read_chart(said, ctx, registry, today)
    if ask is None:
        return Notice(text=t.unknown_chart(said, lang), code="unknown_chart")
    return await chart(ask, reads, registry, user, out_dir, lang, ctx.vocabulary_map)
