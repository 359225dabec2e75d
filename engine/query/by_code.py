"""The answer code writes when no grounded answer came from the model: the
facts themselves, labelled in the person's language, with their dates.

Records come first (heaviest sets, best estimated 1RMs, longest runs,
fastest paces, a failed attempt named as attempted), then counts, first and
latest times, progressions and the rest, as many as :data:`LIMIT`. With no
facts, the entries are listed instead.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from engine.query.references import Ref, RefTable
from engine.query.render import Language, Names, localize, render_date, render_period, value_text
from engine.store.history import EVER

LIMIT = 5
"""Facts in a code-written answer: the few that matter, not a page of them."""

_RANK = {
    "heaviest_set": 0, "best_e1rm": 0, "most_reps": 0, "longest": 0, "best_pace": 0, "failed_attempt": 1,
    "reps_at": 1, "sessions": 2, "count": 2, "sessions_per_week": 2, "total_distance": 2, "first": 3, "last": 3,
    "progress": 4, "latest_top": 4, "first_top": 4, "best_volume": 5, "best_set": 5,
}  # fmt: skip
_KO_ALL = "전체 운동"
"""The subject ``all`` (every training session); a domain's own subject is named by its file's ``[label]``."""
_KO_MEASURE = {
    "heaviest_set": "최고 중량 (완료한 세트)", "best_e1rm": "최고 추정 1RM", "best_set": "추정 1RM이 가장 높은 세트",
    "best_volume": "한 세션 최대 볼륨", "most_reps": "한 세트 최다 반복", "best_total_reps": "한 세션 최다 총 반복",
    "sessions": "세션 수", "last": "최근 세션", "first": "첫 세션", "days_since_last": "최근 세션 뒤 지난 날",
    "failed_attempt": "가장 무거운 실패 시도 (기록 아님)", "first_top": "첫 세션의 최고 중량",
    "latest_top": "최근 세션의 최고 중량", "sessions_per_week": "주당 세션", "total_distance": "총 거리",
    "longest": "최장 거리", "best_pace": "가장 빠른 평균 페이스", "count": "횟수", "heaviest": "최고 중량",
    "e1rm": "추정 1RM", "volume": "볼륨", "total_reps": "총 반복", "most_reps_set": "한 세트 최다 반복",
    "distance": "거리", "duration": "시간", "pace": "평균 페이스",
}  # fmt: skip
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}(#\d+)?$")


def rank(key: str) -> int:
    """How early a fact with this key is shown: records first, then counts, dates and changes."""
    parts = key.split(".")
    return min((_RANK[p] for p in parts[1:] if p in _RANK), default=6)


def _measure(name: str) -> str:
    pct = name.endswith("_pct")
    base = _KO_MEASURE.get(name.removesuffix("_pct"), name.replace("_", " "))
    return base + (" (%)" if pct else "")


def korean_label(ref: Ref, names: Mapping[str, str]) -> str:
    """A fact's label in Korean, read off its key; the English label when the key is unknown."""
    subject, _, rest = ref.key.partition(".")
    labels = names.labels if isinstance(names, Names) else {}
    who = names.get(subject) or (_KO_ALL if subject == "all" else labels.get(subject)) or subject
    parts = rest.split(".")
    if not rest:
        return ref.label
    if parts[0] in ("all_time", "period"):
        scope = (
            "전체 기간" if ref.scope is None or ref.scope == EVER else render_period(ref.scope[0], ref.scope[1], "ko")
        )
        tail = parts[1:]
        if tail[:1] == ["progress"] and len(tail) > 1:
            return f"{who} {_measure(tail[1])} 변화 (첫 세션 → 최근 세션, {scope})"
        if tail[:1] == ["reps_at"] and len(tail) > 1:
            return f"{who} {tail[1]}에서 최다 반복 ({scope})"
        if subject == "all" and tail[:1] in (["sessions"], ["sessions_per_week"]):
            return ("운동한 날" if tail == ["sessions"] else "운동 빈도") + f" ({scope})"
        return f"{who} {_measure(tail[0]) if tail else ''} ({scope})"
    if parts[0] in ("latest", "previous", "previous_best") and len(parts) > 1:
        when = {"latest": "최근 세션", "previous": "이전 세션", "previous_best": "이전 최고"}[parts[0]]
        return f"{who} {when}의 {_measure(parts[1])}"
    if parts[0].startswith("vs_") and len(parts) > 1:
        against = "이전 세션 대비" if parts[0] == "vs_previous" else "이전 최고 대비"
        return f"{who} {_measure(parts[1])} 변화 ({against})"
    if parts[0] in ("volume", "week_volume") and len(parts) > 1:
        return f"{who} {parts[1]} {'주간 ' if parts[0] == 'week_volume' else ''}볼륨"
    if _ISO_DAY.match(parts[0]) and len(parts) > 1:
        return f"{parts[0][:10]} {who} {_measure(parts[1])}"
    if parts[0] == "best_pace" and len(parts) > 1:
        return f"{who} 가장 빠른 평균 페이스 ({parts[1]})"
    return f"{who} {_measure(parts[0])}"


def label(ref: Ref, lang: Language, names: Mapping[str, str]) -> str:
    if lang != "ko":
        return ref.label
    text = korean_label(ref, names)
    if ref.found is not None and ref.scope is None and "찾은 기록" not in text:
        # Computed over what a search fetched, never all of it: the label says so, as the English one does.
        span = f", {render_period(ref.found_span[0], ref.found_span[1], 'ko')}" if ref.found_span else ""
        text += f" (찾은 기록 {ref.found}개 중{span})"
    return localize(text, "ko", names)


def line(ref: Ref, lang: Language, names: Mapping[str, str]) -> str:
    """``- label: value (date)`` for a fact, ``- date · what was logged`` for an entry."""
    shown = value_text(ref, lang, names)
    if ref.kind == "entry":
        return f"- {shown}"
    when = f" ({render_date(ref.on, lang)})" if ref.on is not None and ref.unit != "date" else ""
    return f"- {label(ref, lang, names)}: {shown}{when}"


def chosen(table: RefTable, limit: int = LIMIT, wanted: Collection[str] = ()) -> list[Ref]:
    """The values a code-written answer shows: records first, then counts, dates, changes; else entries.

    Every subject (exercise, sport, all training) gets its first fact in before
    any gets a second, so "my strongest lift and longest run" shows both.
    """
    # The question's exercises first, whole-history facts (they carry a scope) before the retrieved
    # window's, then by rank.
    about = {w.lower() for w in wanted}
    ordered = sorted(
        table.of("fact"),
        key=lambda r: (bool(about) and r.key.split(".", 1)[0] not in about, r.scope is None, rank(r.key)),
    )
    firsts: dict[str, Ref] = {}
    for r in ordered:
        firsts.setdefault(r.key.split(".", 1)[0], r)
    picked = {r.id for r in [*firsts.values(), *(r for r in ordered if r not in firsts.values())][:limit]}
    facts = [r for r in ordered if r.id in picked]
    return facts or table.of("entry")[-limit:]


def written_by_code(
    table: RefTable, lang: Language, names: Mapping[str, str], header: str, wanted: Collection[str] = ()
) -> tuple[str, list[str]]:
    """The code-written answer and the entry ids it rests on (``wanted``: the question's exercises)."""
    refs = chosen(table, wanted=wanted)
    body = "\n".join(line(r, lang, names) for r in refs)
    ids = list(dict.fromkeys(i for r in refs for i in r.entry_ids))
    return f"{header}\n{body}", ids
