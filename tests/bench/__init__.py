"""Smoke tests of bench/ (structure only, never timings)."""
