"""compute-sanitizer: running it on a program with its output streamed (``run``), its findings
(``findings``), and its reports read as text (``text_report``), XML (``xml_report``) or either
(``report``).
"""
