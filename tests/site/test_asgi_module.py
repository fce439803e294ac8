"""The ASGI module, as daphne loads it."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import subprocess_env

LOAD = """
import gc
before = gc.get_freeze_count()
import remi_site.asgi
print(before, gc.get_freeze_count())
"""


def test_what_the_site_loads_is_left_out_of_full_collections():
    """Django, the apps and their modules live as long as the process: frozen once loaded, a
    full collection no longer scans them (it held a daphne for up to 0.42 s under load)."""
    said = subprocess.run(
        [sys.executable, "-c", LOAD],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    before, after = map(int, said.stdout.split())
    assert before == 0
    assert after > 50_000, f"only {after} objects frozen"
