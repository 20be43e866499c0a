"""cuda-gdb's CUDA extensions, turned into the frozen views of :mod:`cudatui.gdbbridge.models.cuda`: the ``-cuda-info-*``
tables (``tables``), focus switches (``focus``), registers (``registers``), the one expression
evaluator and shared memory (``evaluation``), SASS (``disassembly``), an expression in every lane of a warp
(``warp_watch``) and the ``__shared__`` arrays a kernel's source declares (``shared_decls``).
"""
