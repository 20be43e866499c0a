"""``cudatui doctor``: is this machine ready for live CUDA debugging? The probes of the tools,
permissions and GPUs (``checks``) and of the build side (``toolchain``), what they share
(``probe``), and the report (``run``).
"""
