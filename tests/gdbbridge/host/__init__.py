"""gdbbridge/host: the host Python stack read, encoded, shown, and faulthandler's report."""
