"""gdbbridge/explain: error texts to diagnoses, the rules' order."""
