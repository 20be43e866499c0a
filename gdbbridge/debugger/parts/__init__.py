"""The on-demand parts of a stop, one module each (see :mod:`cudatui.gdbbridge.debugger.on_demand`)."""
