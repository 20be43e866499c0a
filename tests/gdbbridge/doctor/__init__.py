"""gdbbridge/doctor: the doctor's checks."""
