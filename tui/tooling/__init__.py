"""Tooling beside the product: driving an app along a recorded lesson path (recording, screenshots, bench)."""
