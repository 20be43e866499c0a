"""The app as a whole in Pilot: replayed and live sessions, keys, the demo, the command line."""
