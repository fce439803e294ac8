"""deploy/: the nginx template renders and Debian's nginx accepts it; the units hold the commands.

These are quick checks of the files themselves.  tests/site/test_production_stack.py (issue
31, point 2) runs them for real: the release step, two daphnes, the worker and beat from the
units' commands with remi.env, behind nginx rendered from the same template.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from deploy.render import render

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / "systemd" / name)
    return parser


def test_a_missing_placeholder_is_an_error_and_nginx_variables_are_kept():
    with pytest.raises(KeyError, match="REMI_LISTEN"):
        render("listen ${REMI_LISTEN}; set $x 1;", {})
    assert render("listen ${REMI_LISTEN}; $host", {"REMI_LISTEN": "80"}) == "listen 80; $host"


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (bin/test installs it as root)")
def test_debian_nginx_accepts_the_rendered_template(tmp_path):
    site = render(
        (DEPLOY / "nginx" / "remi.conf").read_text(),
        {
            "REMI_UPSTREAM_SERVERS": "server 127.0.0.1:8001; server 127.0.0.1:8002;",
            "REMI_LISTEN": "127.0.0.1:18080",
            "REMI_SERVER_NAME": "remi.test",
            "REMI_STATIC_ROOT": str(tmp_path / "static"),
        },
    )
    (tmp_path / "remi.conf").write_text(site)
    for folder in ("logs", "tmp"):
        (tmp_path / folder).mkdir()
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"error_log {tmp_path}/logs/error.log;\nevents {{}}\nhttp {{\n"
        f"  access_log {tmp_path}/logs/access.log;\n"
        f"  client_body_temp_path {tmp_path}/tmp/body;\n  proxy_temp_path {tmp_path}/tmp/proxy;\n"
        f"  include {tmp_path}/remi.conf;\n}}\n"
    )
    done = subprocess.run(
        [
            str(NGINX),
            "-t",
            "-p",
            str(tmp_path),
            "-c",
            str(main),
            "-g",
            f"pid {tmp_path}/nginx.pid;",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "hash $remi_game consistent" in site
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site


def test_the_units_start_the_procfile_commands_after_the_release_step():
    release = unit("remi-release.service")
    text = (DEPLOY / "systemd" / "remi-release.service").read_text().splitlines()
    steps = [line.removeprefix("ExecStart=") for line in text if line.startswith("ExecStart=")]
    assert [step.split(maxsplit=1)[1] for step in steps] == [
        "-m remi_site.catalogues",
        "manage.py migrate --noinput",
        "manage.py collectstatic --noinput",
    ]
    assert release.get("Service", "Type") == "oneshot"
    for name, program in [
        ("remi-web@.service", "daphne"),
        ("remi-worker.service", "celery"),
        ("remi-beat.service", "celery"),
    ]:
        service = unit(name)
        assert service.get("Unit", "Requires") == "remi-release.service"
        assert "remi-release.service" in service.get("Unit", "After")
        assert service.get("Service", "EnvironmentFile") == "/etc/remi/remi.env"
        assert Path(service.get("Service", "ExecStart").split()[0]).name == program
    assert "--port 800%i remi_site.asgi:application" in unit("remi-web@.service").get(
        "Service", "ExecStart"
    )
    assert " beat " in unit("remi-beat.service").get("Service", "ExecStart")
