"""gdbbridge/sanitizer: compute-sanitizer reports parsed (text, XML, gzip), the launch frame, the run."""
