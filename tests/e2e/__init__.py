"""End to end in a real terminal (tmux): the installed package and plain GNU gdb."""
