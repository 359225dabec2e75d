"""Helpers shared by tests (no tests, no fixtures here: fixtures live in conftest.py files)."""
