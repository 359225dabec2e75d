"""One exercise's facts: sessions, the last one, its bests, recent and weekly volume."""

from __future__ import annotations

from datetime import date, timedelta

from engine.facts.display import _fmt, _week, _with_unit
from engine.facts.found import _Found
from engine.facts.lifts import _Lift, _set_text, _summary
from engine.facts.measures import _BODYWEIGHT, _WEIGHTED, _Measure
from engine.facts.model import RECENT_SESSIONS, RECENT_WEEKS, Fact
from engine.facts.rows import _BY_DAY, _DAY, _E1_R, _E1_UNIT, _E1_W, _Row


def _lift_facts(lift: _Lift, today: date | None, found: _Found) -> list[Fact]:
    """Sessions, the last one, bests (these name the entries found), recent and weekly volume."""
    name, unit, note, days = lift.name, lift.unit, lift.note, lift.days
    where = found.words
    last = days[-1]
    count, summary = _summary(lift.logs(last))
    out = [
        Fact(
            key=f"{name}.sessions",
            label=f"{name} sessions {where}",
            value=len(days),
            unit="sessions",
            display=f"{len(days)} session{'s' if len(days) != 1 else ''}",
            dates=list(map(_BY_DAY, days)),
            entry_ids=lift.all_ids(days),
            found=found.count,
            found_span=found.span,
        ),
        Fact(
            key=f"{name}.last",
            label=f"last {name} session {where}",
            value=count,
            unit="sets",
            display=summary,
            on=last[_DAY],
            dates=[last[_DAY]],
            entry_ids=lift.ids(last),
            found=found.count,
            found_span=found.span,
        ),
    ]
    if today is not None:
        ago = (today - last[_DAY]).days
        out.append(
            Fact(
                key=f"{name}.days_since_last",
                label=f"days since the last {name} session {where}",
                value=ago,
                unit="days",
                display=f"{ago} day{'s' if ago != 1 else ''}",
                dates=[last[_DAY], today],
                entry_ids=lift.ids(last),
                found=found.count,
                found_span=found.span,
            )
        )

    def one(key: str, label: str, value: float, m: _Measure, display: str, r: _Row, *, record: bool = False) -> Fact:
        """A fact from one session; a ``record`` is the best of the entries found and says so."""
        return Fact(
            key=f"{name}.{key}",
            label=f"{label}{note} {where}" if record else label + note,
            value=value,
            unit=m.unit(unit),
            display=display,
            on=r[_DAY],
            dates=[r[_DAY]],
            entry_ids=lift.ids(r),
            found=found.count if record else None,
            found_span=found.span if record else None,
        )

    measures = _WEIGHTED if lift.weighted else _BODYWEIGHT
    for m in measures:
        best = m.best(days)
        if best is None or (value := m.get(best)) is None:
            continue
        out.append(one(m.best_key, f"{m.best_label} {name}", value, m, m.show(best, unit), best, record=True))
        if m.key == "e1rm":
            shown = f"{_set_text(best[_E1_W], best[_E1_R], best[_E1_UNIT], unit)} (e1RM {m.show(best, unit)})"
            out.append(one("best_set", f"best {name} set by estimated 1RM", value, m, shown, best, record=True))
    size = measures[-1]
    per = f"{size.noun} of {name}"
    recent = [r for r in days[-4 * RECENT_SESSIONS :] if size.get(r) is not None][-RECENT_SESSIONS:]
    for r in recent:
        day = r[_DAY].isoformat()
        out.append(one(f"volume.{day}", f"{per} on {day}", size.get(r) or 0.0, size, size.show(r, unit), r))
    # Walk back from the latest session: only the last weeks are shown, and the
    # ISO calendar is too slow to compute for every session.
    weeks: dict[str, list[_Row]] = {}
    for r in reversed(days):
        if size.get(r) is None:
            continue
        week = _week(r[_DAY])
        if week not in weeks and len(weeks) == RECENT_WEEKS:
            break
        weeks.setdefault(week, []).insert(0, r)
    for week in sorted(weeks):
        group = weeks[week]
        total = sum(size.get(r) or 0.0 for r in group)
        monday = group[0][_DAY] - timedelta(days=group[0][_DAY].weekday())
        sunday = monday + timedelta(days=6)
        out.append(
            Fact(
                key=f"{name}.week_volume.{week}",
                label=f"{per} in week {week} ({monday.isoformat()} to {sunday.isoformat()}){note}",
                value=total,
                unit=size.unit(unit),
                display=_with_unit(_fmt(total), size.short_unit(unit)),
                dates=list(map(_BY_DAY, group)),
                entry_ids=lift.all_ids(group),
            )
        )
    return out
