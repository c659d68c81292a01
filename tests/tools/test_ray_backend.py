"""`rulelang evaluate --backend ray` (tools/evidence/cluster.py): the same records as the local pool
for the same seeds, byte for byte. Ray binds its servers to every interface of the machine
(it replaces a node address of 127.0.0.1 by the machine's own), so the Ray run is made in a
network namespace of its own (`unshare -n`) that has the loopback interface only: no other
network address can be used."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulelang.tools.cli import main
from rulelang.tools.evidence import cluster

ARGS = ["tic_tac_toe", "--games", "30", "--seed", "5", "--jobs", "2", "--coverage", "0"]
ISOLATED = ["unshare", "-n", "--", "sh", "-c", 'ip link set lo up && exec "$0" "$@"',
            sys.executable]


def test_only_the_loopback_interface_in_the_namespace() -> None:
    names = subprocess.run([*ISOLATED, "-c", "import socket; print(sorted(n for _, n in "
                            "socket.if_nameindex()))"], capture_output=True, text=True,
                           check=True, timeout=30).stdout
    assert names.strip() == "['lo']"


# The private instance's sockets, listed in a namespace whose loopback interface also holds
# 192.0.2.77 (a documentation address, reachable from nowhere) with the default route through
# it: Ray takes that for the machine's network address, as it takes a real one elsewhere, so a
# server bound to it or to every interface would show here.
WITH_AN_ADDRESS = ["unshare", "-n", "--", "sh", "-c", "ip link set lo up && ip addr add "
                   "192.0.2.77/24 dev lo && ip route add default dev lo src 192.0.2.77 && "
                   'exec "$0" "$@"', sys.executable]
SOCKETS = """
import json, ray
from rulelang.tools.evidence import cluster
cluster.start_private(1)
assert ray.get(ray.remote(lambda: 7).remote()) == 7
found = []
for name in ("/proc/net/tcp", "/proc/net/tcp6"):
    for row in open(name).read().splitlines()[1:]:
        cols = row.split()
        if cols[3] == "0A":  # listening
            found.append(cols[1].split(":")[0])
ray.shutdown()
print(json.dumps(found))
"""
LOOPBACK = {"0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}


def test_a_private_instance_listens_on_the_loopback_interface_only() -> None:
    run = subprocess.run([*WITH_AN_ADDRESS, "-c", SOCKETS], capture_output=True, text=True,
                         timeout=240)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(found) >= 3  # the GCS, the raylet, the driver's worker …
    assert set(found) <= LOOPBACK, found  # (0.0.0.0, ::, 192.0.2.77 would be exposed)
    assert "Token authentication" not in run.stderr and "ray" not in run.stderr.lower()


def test_ray_gives_the_local_pools_json(tmp_path: Path) -> None:
    assert main(["evaluate", *ARGS, "--out", str(tmp_path / "local")]) == 0
    ray = subprocess.run([*ISOLATED, "-m", "rulelang", "evaluate", *ARGS, "--backend", "ray",
                          "--out", str(tmp_path / "ray")], capture_output=True, text=True,
                         timeout=240)
    assert ray.returncode == 0, ray.stderr[-2000:]
    assert "30 games in" in ray.stdout and " s to start Ray)" in ray.stdout
    assert ray.stderr == ""  # Ray's own lines kept out (--verbose shows them)
    local = (tmp_path / "local" / "evaluation.json").read_bytes()
    assert (tmp_path / "ray" / "evaluation.json").read_bytes() == local


def test_without_ray_installed_the_backend_is_a_clear_mistake(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails
    assert main(["evaluate", *ARGS, "--backend", "ray"]) != 0
    err = capsys.readouterr().err
    assert "the Ray backend needs the 'ray' package" in err and "Traceback" not in err
    with pytest.raises(Exception, match="needs the 'ray' package"):
        cluster.ray_module()


def test_an_address_without_the_ray_backend_is_refused(capsys) -> None:
    assert main(["evaluate", *ARGS, "--address", "10.0.0.1:6379"]) != 0
    assert "--address is for --backend ray" in capsys.readouterr().err
