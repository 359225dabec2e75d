"""Answering questions about entries: the question's shape, entry search, grounding checks."""
