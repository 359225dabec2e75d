"""The Slack worker: the engine's process, which starts the gateway and runs the turns it hands over.

- ``app.py`` — starts the gateway beside the engine, `running` and `serve`
- ``adapter.py`` — `SlackAdapter`: handed-over requests and presses queued per conversation
- ``requests.py`` — an accepted post or slash command as its engine turn; ``presses.py`` — a press's decision
- ``turns.py`` — one turn: ``engine.handle`` with a reaction as the sign of work, then outcomes in the thread
- ``typed.py`` — a post read as the answer or decision it types

It imports the shared modules of `adapters.slack` and never the gateway's.
"""
