"""cudatui's tests, by layer (see tests/support/__init__.py for the shared helpers)."""
