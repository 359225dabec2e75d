"""Reminders: when they are due (schedule), read from words in code (when), kept durably and sent once."""
