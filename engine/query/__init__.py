"""Answering questions about entries: the question's shape, entry search, what it asks, claims."""
