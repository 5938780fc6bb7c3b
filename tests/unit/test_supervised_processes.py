"""What a site's supervisor runs (infra/systemd/) is what `infra/run` runs under supervisord:
the same commands, each restarted whenever it stops, however often."""

from __future__ import annotations

import configparser
import re
import runpy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "infra" / "systemd"


def infra_run() -> dict[str, Any]:
    return runpy.run_path(str(ROOT / "infra" / "run"), run_name="infra_run")


def supervised(tmp_path: Path) -> dict[str, str]:
    """program → the command supervisord runs, paths dropped, as infra/run writes it."""
    run = infra_run()
    env = {"CABOOSE_DB": "postgresql://caboose@db/caboose", "CABOOSE_REDIS": "redis://redis:6379/0",
           "CABOOSE_API_PROCESSES": "2", "CABOOSE_PORT": "0", "CABOOSE_API_PORT": "1"}
    plan = run["Plan"](env, "127.0.0.1", 0, "127.0.0.1", [1, 2], [("127.0.0.1", 1), ("127.0.0.1", 2)])
    config = configparser.ConfigParser(interpolation=None)
    config.read_string(run["supervisor_config"](plan, tmp_path, "/usr/sbin/haproxy", tmp_path / "haproxy.cfg"))
    return {section.removeprefix("program:"): words(config[section]["command"])
            for section in config.sections() if section.startswith("program:")}


def words(command: str) -> str:
    """A command without its directories, so a checkout's paths compare with /opt/caboose's."""
    return " ".join(Path(word).name if "/" in word else word for word in command.split())


def unit(name: str) -> configparser.SectionProxy:
    parsed = configparser.ConfigParser(interpolation=None, strict=False)
    parsed.read(UNITS / name)
    return parsed["Service"]


def test_every_process_infra_run_supervises_has_a_unit_that_runs_the_same_command(tmp_path: Path) -> None:
    programs = supervised(tmp_path)
    assert set(programs) == {"haproxy", "api-1", "api-2", "projections", "notify", "bots", "log"}
    for name in ("projections", "notify", "bots", "log"):
        assert words(unit(f"caboose-{name}.service")["ExecStart"]) == programs[name]
    api = re.search(r"exec (.*)'$", unit("caboose-api@.service")["ExecStart"])
    assert api is not None and words(api[1]) == programs["api-1"] == programs["api-2"]
    # HAProxy is Debian's own unit, given the configuration infra/run writes.
    dropin = (UNITS / "haproxy.service.d" / "caboose.conf").read_text()
    assert "CONFIG=/etc/caboose/haproxy/haproxy.cfg" in dropin and "--write-config /etc/caboose/haproxy" in dropin


def test_every_unit_and_program_is_restarted_whenever_it_stops(tmp_path: Path) -> None:
    for path in sorted(UNITS.glob("caboose-*.service")):
        parsed = configparser.ConfigParser(interpolation=None, strict=False)
        parsed.read(path)
        assert parsed["Service"]["Restart"] == "always", path.name
        assert parsed["Unit"]["StartLimitIntervalSec"] == "0", path.name
    config = configparser.ConfigParser(interpolation=None)
    run = infra_run()
    plan = run["Plan"]({}, "127.0.0.1", 0, "127.0.0.1", [1], [("127.0.0.1", 1)])
    config.read_string(run["supervisor_config"](plan, tmp_path, "haproxy", tmp_path / "haproxy.cfg"))
    for section in (s for s in config.sections() if s.startswith("program:")):
        assert config[section]["autorestart"] == "true" and int(config[section]["startretries"]) >= 10**6, section
