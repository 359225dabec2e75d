"""One reading of a message, in code: what it is (a log, a question, small talk) and what it says.

The route takes this reading first; the Router model is asked only about a
message code cannot place, and the Parser and Planner only about what code
could not read (see :mod:`engine.reading.message`).
"""

from engine.reading.message import Reading, read_message

__all__ = ["Reading", "read_message"]
