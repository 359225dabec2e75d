"""Keeping a long-running process healthy: per-conversation locks, checkpoint pruning."""
