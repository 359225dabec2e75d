"""Last week's summary (Monday to Sunday, as the person's days fall in their zone): planned sessions done,
records, volume against the 4 weeks before, lifts stalling, this week's targets, and a volume chart when
there are weeks to compare. Every figure is read or computed here; the words are :mod:`.texts`'.

Entries carry their day in the person's zone already (``occurred_on``), so a week is a range of those days;
the zone only decides which week is "last week" (`last_week`): 08:00 Monday in Seoul is still Sunday in UTC.
Stalls and targets are read as of now (the latest sessions), which on a Monday is the end of that week.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from engine import progress_texts
from engine.charts import ChartAsk, ChartReads, chart
from engine.domains.registry import DomainRegistry
from engine.facts.model import Stall, Target
from engine.facts.stalls import lift_stall
from engine.facts.targets import next_target
from engine.language.dates import today_in
from engine.outcomes import Answer, Chart, Outcome
from engine.query.render import Language, korean_names
from engine.store.db import Database
from engine.store.history import HistoryStore
from engine.store.lift_sessions import SessionStore
from engine.summary import texts as t
from engine.summary.reads import AnnouncedPR, WeekReads

WEEKS_BEFORE = 4
"""The weeks whose average volume last week is compared with."""


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def last_week(tz: str, now: datetime) -> date:
    """The Monday of the week before the one ``now`` falls in, in zone ``tz``."""
    return monday_of(today_in(tz, now)) - timedelta(days=7)


@dataclass(frozen=True, slots=True)
class WeekFigures:
    """The numbers of one week, as code read them."""

    start: date
    end: date
    planned: int
    """Days with a planned session."""
    done: int
    """Planned days a log completed."""
    training_days: int
    records: list[AnnouncedPR]
    volume_kg: float
    average_kg: float | None
    """The mean weekly volume of the 4 weeks before (weeks with nothing count as 0); None when all were 0."""
    change_pct: float | None
    stalls: list[tuple[Stall, float]] = field(default_factory=list)
    """Each stalled lift with its domain's deload share."""
    targets: list[Target] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Summary:
    """A week's summary: the text, its figures, and a chart when there was one to draw."""

    text: str
    figures: WeekFigures
    language: Language
    chart: Chart | None = None

    @property
    def outcomes(self) -> list[Outcome]:
        """What a person is sent: the text, then the chart."""
        said: list[Outcome] = [Answer(text=self.text, language=self.language)]
        return [*said, self.chart] if self.chart is not None else said


async def week_figures(db: Database, registry: DomainRegistry, user: str, start: date) -> WeekFigures:
    """Every number of the week starting ``start`` (a Monday)."""
    end = start + timedelta(days=6)
    reads = WeekReads(db, registry.not_training)
    planned = await reads.planned_days(user, start, end)
    days = await reads.training_days(user, start, end)
    volume = await reads.volume_kg(user, start, end)
    before = [await reads.volume_kg(user, start - timedelta(days=7 * i), start - timedelta(days=7 * i - 6))
              for i in range(1, WEEKS_BEFORE + 1)]  # fmt: skip
    average = sum(before) / WEEKS_BEFORE if any(before) else None
    change = (volume - average) / average * 100 if average else None
    stalls: list[tuple[Stall, float]] = []
    targets: list[Target] = []
    history, sessions = HistoryStore(db, registry), SessionStore(db)
    for lift in await reads.lifts(user, start, end):
        found = await lift_stall(sessions, registry, user, lift)
        if found is not None and isinstance(found[0], Stall):
            stalls.append((found[0], found[1].deload_percent))
        target = await next_target(history, registry, user, lift)
        if target is not None:
            targets.append(target)
    return WeekFigures(
        start=start,
        end=end,
        planned=len(planned),
        done=sum(1 for p in planned if p.done),
        training_days=len(days),
        records=await reads.records(user, start, end),
        volume_kg=volume,
        average_kg=average,
        change_pct=change,
        stalls=stalls,
        targets=targets,
    )


def summary_text(f: WeekFigures, lang: Language, names: Mapping[str, str]) -> str:
    """The figures in the person's language, a lift by its name in that language."""
    head = t.week_head(f.start, f.end, lang)
    if not f.training_days and not f.planned:
        return f"{head}\n{t.nothing_logged(f.start, f.end, lang)}"
    by_lift: dict[str, list[str]] = {}
    for r in f.records:
        by_lift.setdefault(names.get(r.subject, r.subject), []).append(t.pr_part(r.kind, r.score, r.at, lang))
    lines = [
        head,
        t.sessions_line(f.done, f.planned, f.training_days, lang),
        t.records_line(list(by_lift.items()), len(f.records), lang),
        t.volume_line(f.volume_kg, f.average_kg, f.change_pct, lang),
    ]
    if f.stalls:
        lines.append(t.stalls_head(lang))
        lines += [f"• {progress_texts.stall_line(s, names.get(s.exercise, s.exercise), d, lang)}" for s, d in f.stalls]
    else:
        lines.append(t.no_stalls(lang))
    if f.targets:
        lines.append(t.targets_head(lang))
        lines += [
            f"• {progress_texts.next_target(x.model_copy(update={'exercise': names.get(x.exercise, x.exercise)}), lang)}"
            for x in f.targets
        ]
    return "\n".join(lines)


async def weekly_summary(
    db: Database,
    registry: DomainRegistry,
    user: str,
    week_start: date,
    lang: Language,
    charts_dir: Path | None = None,
    spellings: Mapping[str, Iterable[str]] | None = None,
) -> Summary:
    """The summary of the week starting ``week_start`` (a Monday in the person's days) for ``user``.

    Args:
        charts_dir: Where a volume chart of the week and the 4 before it is written (when two or more of
            those weeks hold volume); None: no chart.
        spellings: Each canonical term's spellings: a lift is named by its Korean one in Korean.
    """
    start = monday_of(week_start)
    f = await week_figures(db, registry, user, start)
    subjects = [*(r.subject for r in f.records), *(s.exercise for s, _ in f.stalls), *(x.exercise for x in f.targets)]
    names = korean_names(subjects, spellings or {}) if lang == "ko" else {}
    drawn: Chart | None = None
    weeks_with_volume = (f.volume_kg > 0) + (0 if f.average_kg is None else 1)
    if charts_dir is not None and weeks_with_volume >= 2:
        ask = ChartAsk("volume", (), start - timedelta(days=7 * WEEKS_BEFORE), f.end)
        made = await chart(ask, ChartReads(db, registry), registry, user, charts_dir, lang, spellings)
        drawn = made if isinstance(made, Chart) else None
    return Summary(summary_text(f, lang, names), f, lang, drawn)
