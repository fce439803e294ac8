"""Pocket Rummy: a test-only fifth game, the proof that a game is a plug-in.

Everything it is lives in this folder: its engine (``engine``), its presentation
(``presentation``), its templates (``templates/``), its page script (``static/``) and its
plug-in module (``plugin``), which ``conftest.py`` registers with one line.  Its tests play it
through the real site.  No file outside this folder knows it exists (``test_no_trace.py``
checks with ``git grep``).
"""
