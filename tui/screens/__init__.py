"""Full screens and dialogs of the apps: help, the guide, explain, go-to focus, the lesson picker, the follower's waiting screen."""
