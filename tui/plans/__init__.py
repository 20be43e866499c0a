"""What a command opens before any UI starts: a lesson (live or replay), a recording."""
