"""Almanac's engine: the domain expert behind every chat platform (no platform inside)."""
