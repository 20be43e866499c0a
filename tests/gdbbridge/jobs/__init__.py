"""gdbbridge/jobs: attaching, ranks and their relay, triage."""
