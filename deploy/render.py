"""Fill a deploy/ template's ${NAME} placeholders from the environment or NAME=value arguments.

    python deploy/render.py deploy/nginx/remi.conf REMI_LISTEN=80 ... \
        > /etc/nginx/sites-available/remi.conf

nginx's own $variables (lower case) are left alone; a missing placeholder is an error.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

PLACEHOLDER = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}")


def render(text: str, values: Mapping[str, str]) -> str:
    missing = sorted({name for name in PLACEHOLDER.findall(text) if name not in values})
    if missing:
        raise KeyError(f"no value for {', '.join(missing)}")
    return PLACEHOLDER.sub(lambda match: values[match.group(1)], text)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    values = dict(os.environ)
    for pair in argv[1:]:
        name, _, value = pair.partition("=")
        values[name] = value
    try:
        sys.stdout.write(render(Path(argv[0]).read_text(), values))
    except KeyError as error:
        print(f"error: {error.args[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
