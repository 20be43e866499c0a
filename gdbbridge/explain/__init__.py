"""``cudatui explain``: a pasted CUDA error explained: the facts pulled out of its text
(``facts``), the knowledge base of messages, causes and next steps (``kb``), and the
diagnosis (``diagnose``).
"""
