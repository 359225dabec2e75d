"""Progress charts drawn by code (issue 24, item 4): a lift's estimated 1RM and top set with records,
weekly volume, training days as a calendar, a sport's weekly distance and pace, bodyweight.

Every number is code's: the series (:mod:`.series`) come from the same rows and
formula as the records, the caption's figures (:mod:`.figures`) from the series;
the picture (:mod:`.draw`) is matplotlib's Agg canvas, drawn off the event loop.
"""

from engine.charts.asking import CHART, asks_chart, chart_of, read_chart, year_before
from engine.charts.chart import chart, chart_for_words
from engine.charts.files import charts_dir
from engine.charts.model import ChartAsk
from engine.charts.reads import ChartReads

__all__ = [
    "CHART",
    "ChartAsk",
    "ChartReads",
    "asks_chart",
    "chart",
    "chart_for_words",
    "chart_of",
    "charts_dir",
    "read_chart",
    "year_before",
]
