"""The weekly summary (issue 25, item 4) and the nudges that know the log (item 3): every number by code.

`weekly_summary` makes last week's summary; `SummaryPrefs` keeps who asked for it weekly, and when, and
hands the scheduler what is due (`SummaryPrefs.due_summaries`, `SummaryPrefs.mark_sent`); `Nudges` says
which planned sessions went unlogged and whether a week is behind its plan.
"""

from engine.summary.nudges import DueNudge, Nudges
from engine.summary.prefs import DueSummary, NudgeMode, SummaryPrefs
from engine.summary.weekly import Summary, weekly_summary

__all__ = ["DueNudge", "DueSummary", "NudgeMode", "Nudges", "Summary", "SummaryPrefs", "weekly_summary"]
