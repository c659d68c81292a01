"""The Ray backend of `evaluate` and `compare` (`--backend ray [--address ADDR]`): the same
tasks as the local process pool (playout.chunks), each a chunk of game indices played by
playout's own function in a Ray worker, the results taken in task order, so the records
and the JSON are those of the local backend for the same seeds.

Without `--address` a private Ray instance is started on this machine for the run (no
dashboard, `--jobs` CPUs, shut down at the end). Ray's servers listen on the machine's network
interfaces (Ray replaces a node address of 127.0.0.1 by the machine's own): to keep such a run
off the network, start it in a network namespace with the loopback interface only
(`unshare -n`), as the project's tests do. With an address the run joins that cluster
(`ray://host:10001` or `host:6379`, as `ray.init` takes it); every node must have rulelang
installed and the rulebook at the same path (bundled rulebooks are found by name everywhere).
Ray is an optional extra: `pip install 'rulelang[ray]'`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rulelang.tools.common import _user_error

Record = dict[str, Any]


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
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        else:  # a private instance on this machine, for this run
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
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
        if started:
            ray.shutdown()


def _take(ray: Any, pending: list[Any], on_chunk: Callable[[int], None] | None
          ) -> list[Record]:
    done: list[Record] = ray.get(pending.pop(0))
    if on_chunk:
        on_chunk(len(done))
    return done
