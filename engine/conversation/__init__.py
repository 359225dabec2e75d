"""The turn core, a floor below `engine.engine` and never importing it.

- `dispatch`: one turn, by its kind: a message, an answer, a command, or a delivery seen before.
- `admission`: what a turn must pass before it runs, and what a message means while a question is open.
- `runner`: runs the graph for a recorded turn (record → invoke → mark done, or roll back and mark
  failed), and reads what a thread is paused on.
- `backlog`: turns that did not run straight through (held, cut off, failed, delivered twice).
- `controls`: the nine commands. It hands its own runner to `backlog.Backlog`, so the backlog runs a
  recorded command without importing it: the imports here point one way.
"""
