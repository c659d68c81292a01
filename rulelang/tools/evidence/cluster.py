"""The Ray backend of `evaluate` and `compare` (`--backend ray [--address ADDR]`): the same
tasks as the local process pool (playout.chunks), each a chunk of game indices played by
playout's own function in a Ray worker, the results taken in task order, so the records
and the JSON are those of the local backend for the same seeds.

Without `--address` a private Ray instance is started on this machine for the run (no
dashboard, `--jobs` CPUs, shut down at the end), on the loopback interface only: Ray's node
address is its "local" one (127.0.0.1, as Ray chooses on machines where it runs no cluster),
and its servers (GCS, raylet, object manager, workers, agents) then listen on 127.0.0.1 alone
(tests/tools/test_ray_backend.py lists the listening sockets of such an instance). Its start
is timed apart from the games (`started`), and Ray's own log lines are kept out of rulelang's
output unless `verbose`. With an address the run joins that cluster (`ray://host:10001` or
`host:6379`, as `ray.init` takes it) as a Ray driver, and is exposed as any driver of that
cluster is (docs/evaluate.md); every node must have rulelang installed and the rulebook at
the same path (bundled rulebooks are found by name everywhere). Ray is an optional extra:
`pip install 'rulelang[ray]'`.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

from rulelang.tools.common import _user_error

Record = dict[str, Any]
# Ray's switch between a node address of the machine's network interface (a cluster node) and
# the loopback one (a single machine): read when Ray is imported and when it chooses the address
_LOCAL_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
started: list[float] = []  # the seconds each private instance took to start, this process
verbose: list[bool] = [False]  # --verbose: Ray's own log lines shown


def ray_module() -> Any:
    try:
        import ray
    except ImportError:
        raise _user_error("R418", "the Ray backend needs the 'ray' package",
                          help="pip install 'rulelang[ray]', or use --backend local") from None
    return ray


def run_on_ray(play: Callable[..., list[Record]], tasks: Iterator[tuple[Any, list[int]]],
               jobs: int, on_chunk: Callable[[int], None] | None, address: str | None
               ) -> Iterator[list[Record]]:
    """The records `play` gives for each task, in task order, a few tasks ahead of the
    consumer."""
    ray = ray_module()
    begun = not ray.is_initialized()
    if begun:
        if address:
            with _quiet(verbose[0]):
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
        else:  # a private instance on this machine, for this run
            start_private(jobs, verbose[0])
    remote = ray.remote(play)
    pending: list[Any] = []
    try:
        ahead = 2 * max(1, int(ray.cluster_resources().get("CPU", jobs)))
        for setup, indices in tasks:
            pending.append(remote.remote(setup, indices))
            if len(pending) > ahead:
                yield _take(ray, pending, on_chunk)
        while pending:
            yield _take(ray, pending, on_chunk)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if begun:
            with _quiet(verbose[0]):
                ray.shutdown()


def start_private(cpus: int, shown: bool = False) -> None:
    """A Ray instance on this machine, its servers on 127.0.0.1 only, no dashboard."""
    before = os.environ.get(_LOCAL_ONLY)
    os.environ[_LOCAL_ONLY] = "0"  # (inherited by the processes Ray starts)
    ray = ray_module()
    constants = sys.modules["ray._private.ray_constants"]
    was = getattr(constants, "ENABLE_RAY_CLUSTER", True)
    setattr(constants, "ENABLE_RAY_CLUSTER", False)  # noqa: B010 - (read as Ray starts)
    begin = time.perf_counter()
    try:
        with _quiet(shown):
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     configure_logging=False, _node_ip_address="127.0.0.1")
    finally:  # (a later run may join a cluster from this process)
        setattr(constants, "ENABLE_RAY_CLUSTER", was)  # noqa: B010
        if before is None:
            del os.environ[_LOCAL_ONLY]
        else:
            os.environ[_LOCAL_ONLY] = before
    started.append(time.perf_counter() - begin)


@contextlib.contextmanager
def _quiet(shown: bool) -> Iterator[None]:
    """Ray's own lines on stderr (its C++ servers and its loggers write there) kept aside
    while it starts or stops, and shown only if that fails or with `shown`."""
    if shown:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as aside:
        os.dup2(aside.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            aside.seek(0)
            sys.stderr.write(aside.read().decode(errors="replace"))
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _take(ray: Any, pending: list[Any], on_chunk: Callable[[int], None] | None
          ) -> list[Record]:
    done: list[Record] = ray.get(pending.pop(0))
    if on_chunk:
        on_chunk(len(done))
    return done
