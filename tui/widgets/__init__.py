"""Widgets the panes and screens are made of: the key bar, the inline input, the source view and search, splitters, dialogs a pane opens."""
