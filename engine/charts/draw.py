"""Pictures of a series: matplotlib's Agg canvas on a `Figure` of its own (never pyplot, whose figures
are global state), so charts draw off the event loop, in any thread, offline.

Fast for long histories: one polyline per line (rasterized), markers only for
records, weekly areas as one stepped polygon each, and fixed margins instead of
``tight_layout`` (which measures every text twice). Tick labels are digits and
dates in matplotlib's own font; every word is set in the Korean-capable one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from io import BytesIO
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.dates import AutoDateLocator, DateFormatter, date2num
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ticker import FuncFormatter

from engine.charts.fonts import korean_font
from engine.charts.model import (
    DENSE,
    BodyweightSeries,
    CardioSeries,
    DaysSeries,
    Figures,
    LiftSeries,
    VolumeSeries,
    Week,
)
from engine.charts.texts import clock

WIDTH, HEIGHT, DPI = 9.0, 5.0, 100
"""900 × 500 pixels: sharp in a chat, small as a file."""
_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")


def _figure(fig_title: str, font: FontProperties) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.08, 0.12, 0.84, 0.76))
    ax.set_title(fig_title, fontproperties=font, fontsize=13, loc="left")
    ax.grid(True, alpha=0.3)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return fig, ax


def _dates(ax: Axes) -> None:
    # matplotlib.dates has no type hints; these two calls and `_x` are its only uses.
    ax.xaxis.set_major_locator(AutoDateLocator(minticks=3, maxticks=8))  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_formatter(DateFormatter("%Y-%m"))  # type: ignore[no-untyped-call]


def _x(days: Sequence[date]) -> Any:
    """Days as matplotlib's date numbers."""
    return date2num(list(days))  # type: ignore[no-untyped-call]


def _png(fig: Figure) -> bytes:
    out = BytesIO()
    fig.savefig(out, format="png", dpi=DPI)
    return out.getvalue()


def _steps(weeks: Sequence[Week]) -> tuple[Any, Any]:
    """Week edges and values for a stepped area (the last week drawn to its end)."""
    x = _x([w.start for w in weeks] + [weeks[-1].start + timedelta(weeks=1)])
    y = np.array([w.value for w in weeks] + [weeks[-1].value])
    return x, y


def _lines(s: LiftSeries) -> tuple[Any, list[float], list[float]]:
    """The e1RM and top-set lines: per session, or each week's best past `DENSE` sessions (a line of
    thousands of points is a smear at 900 pixels; the records keep their own markers)."""
    if len(s.sessions) <= DENSE:
        return _x([p.on for p in s.sessions]), [p.e1rm for p in s.sessions], [p.top_weight for p in s.sessions]
    weeks: dict[date, tuple[float, float]] = {}
    for p in s.sessions:
        week = p.on - timedelta(days=p.on.weekday())
        e1, top = weeks.get(week, (0.0, 0.0))
        weeks[week] = (max(e1, p.e1rm), max(top, p.top_weight))
    return _x(list(weeks)), [v[0] for v in weeks.values()], [v[1] for v in weeks.values()]


def draw_lift(s: LiftSeries, f: Figures) -> bytes:
    font = korean_font()
    fig, ax = _figure(f.title, font)
    x, e1, top = _lines(s)
    ax.plot(x, e1, color=_COLORS[0], lw=1.8, label=f.labels["e1rm"], rasterized=True)
    ax.plot(x, top, color=_COLORS[1], lw=1.0, alpha=0.7, label=f.labels["top"], rasterized=True)
    prs = [p for p in s.sessions if p.pr]
    if prs:
        ax.scatter(_x([p.on for p in prs]), [p.e1rm for p in prs], marker="^", s=40, color="#d62728",
                   zorder=3, label=f.labels["pr"])  # fmt: skip
    if len(s.sessions) == 1:
        ax.scatter(x, e1, color=_COLORS[0], s=30)
    ax.set_ylabel(s.unit, fontproperties=font)
    _dates(ax)
    ax.legend(prop=font, loc="lower right", frameon=False)
    return _png(fig)


def draw_volume(s: VolumeSeries, f: Figures, names: dict[str, str]) -> bytes:
    font = korean_font()
    fig, ax = _figure(f.title, font)
    base: Any = None
    for i, (lift, weeks) in enumerate(s.lifts):
        x, y = _steps(weeks)
        low = np.zeros_like(y) if base is None else base
        ax.fill_between(x, low, low + y, step="post", color=_COLORS[i % len(_COLORS)], alpha=0.8,
                        label=names.get(lift, lift), lw=0, rasterized=True)  # fmt: skip
        base = low + y
    ax.set_ylabel(f"{f.labels['volume']} ({s.unit})", fontproperties=font)
    ax.set_ylim(bottom=0)
    _dates(ax)
    ax.legend(prop=font, loc="upper left", frameon=False)
    return _png(fig)


def draw_days(s: DaysSeries, f: Figures) -> bytes:
    font = korean_font()
    fig, ax = _figure(f.title, font)
    first = s.weeks[0].start
    grid = np.full((7, len(s.weeks)), np.nan)
    for w in range(len(s.weeks)):
        for d in range(7):
            on = first + timedelta(weeks=w, days=d)
            if s.start <= on <= s.end:
                grid[d, w] = 0.0
    for on in s.days:
        grid[on.weekday(), (on - first).days // 7] = 1.0
    ax.imshow(grid, aspect="auto", cmap="Greens", vmin=-0.15, vmax=1.0, interpolation="nearest",
              extent=(0, len(s.weeks), 7, 0))  # fmt: skip
    ax.grid(False)
    ax.set_yticks([i + 0.5 for i in range(7)])
    ax.set_yticklabels(f.labels["weekdays"].split(), fontproperties=font)
    step = max(1, len(s.weeks) // 6)
    ticks = list(range(0, len(s.weeks), step))
    ax.set_xticks(ticks)
    ax.set_xticklabels([(first + timedelta(weeks=w)).strftime("%Y-%m-%d") for w in ticks])
    ax.set_xlabel(f.labels["days"], fontproperties=font)
    return _png(fig)


def draw_cardio(s: CardioSeries, f: Figures, pace_suffix: str) -> bytes:
    font = korean_font()
    fig, ax = _figure(f.title, font)
    x, y = _steps(s.weeks)
    ax.fill_between(x, 0, y, step="post", color=_COLORS[0], alpha=0.5, lw=0, label=f.labels["distance"],
                    rasterized=True)  # fmt: skip
    ax.set_ylabel(f"{f.labels['distance']} ({s.distance_unit})", fontproperties=font)
    ax.set_ylim(bottom=0)
    _dates(ax)
    paced = [b for b in s.bouts if b.pace is not None]
    if paced:
        right = ax.twinx()
        right.plot(_x([b.on for b in paced]), [b.pace or 0.0 for b in paced], color=_COLORS[1], lw=1.2,
                   label=f.labels["pace"], rasterized=True)  # fmt: skip
        right.invert_yaxis()  # a faster pace is a smaller number: up means faster
        right.yaxis.set_major_formatter(FuncFormatter(_pace_tick))
        right.set_ylabel(f"{f.labels['pace']} ({pace_suffix})", fontproperties=font)
        right.spines["top"].set_visible(False)
        handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
        ax.legend(handles=handles, prop=font, loc="upper left", frameon=False)
    return _png(fig)


def _pace_tick(value: float, _pos: int | None) -> str:
    return clock(value) if value > 0 else ""


def draw_bodyweight(s: BodyweightSeries, f: Figures) -> bytes:
    font = korean_font()
    fig, ax = _figure(f.title, font)
    ax.plot(_x([p.on for p in s.points]), [p.value for p in s.points], color=_COLORS[2], lw=1.6,
            marker="o" if len(s.points) <= 60 else None, ms=3, label=f.labels["bodyweight"], rasterized=True)  # fmt: skip
    ax.set_ylabel(s.unit, fontproperties=font)
    _dates(ax)
    return _png(fig)
