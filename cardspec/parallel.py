"""Work split across workers: local processes, or the tasks of a Ray cluster (``cardspec[ray]``).

:func:`ordered` runs ``fn(*args)`` for each argument tuple and yields the results **in submission
order**, whatever the backend and the number of workers, with at most ``workers * in_flight`` tasks
pending, so a long stream of tasks keeps memory flat; no more processes start than there are tasks.
``simulate``, ``check`` and ``verify`` (proofs and ``--materiality``) split their work through it; since
each task depends only on its arguments (system, options, seeds), the output is the same bytes for one
worker, many processes, or a cluster.

Backends:

* ``process``: a local process pool (``fork`` on Linux while the caller runs one thread, else
  ``spawn``). One worker runs everything in the calling process, with no pool at all.
* ``ray``: each task is a Ray remote task. The cluster is the one named by ``address`` (or the
  ``RAY_ADDRESS`` environment variable); with neither, a local Ray instance with ``workers`` CPUs is
  started for the run and shut down after it. Every node needs this package installed at the same
  version (for example ``pip install 'cardspec[ray]'`` in the cluster's image, or a Ray
  ``runtime_env``); a spec given by file path must exist at that path on every node.

Errors raised by a task come back as the same :class:`~cardspec.engine.errors.CardspecError`
message, never as a wrapped traceback.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

from .engine.errors import CardspecError

R = TypeVar("R")
BACKENDS = ("process", "ray")
IN_FLIGHT = 3
"""Tasks pending per worker, at most."""


def mp_context() -> multiprocessing.context.BaseContext:
    """``fork`` on Linux while this process runs a single thread (fast, and safe then); ``spawn`` otherwise."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def check_backend(backend: str, workers: int, address: str | None = None) -> None:
    """A usage error for a backend this package does not know, a worker count below 1, Ray missing, or a Ray
    cluster's address without the Ray backend (it would be ignored)."""
    if backend not in BACKENDS:
        raise CardspecError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if address is not None and backend != "ray":
        raise CardspecError("--ray-address needs --backend ray")
    if not 1 <= workers <= 1024:
        raise CardspecError(f"--workers must be between 1 and 1024, got {workers}")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise CardspecError("--backend ray needs Ray: pip install 'cardspec[ray]'") from None


def _guarded(fn: Callable[..., R], *args: Any) -> R:
    """Run a task, turning a CardspecError of any subclass into the base class with the same message, so
    that it crosses process boundaries intact."""
    try:
        return fn(*args)
    except CardspecError as exc:
        raise CardspecError(str(exc)) from None


def ordered(fn: Callable[..., R], tasks: Iterable[tuple[Any, ...]], workers: int = 1,
            backend: str = "process", address: str | None = None,
            in_flight: int = IN_FLIGHT) -> Iterator[R]:
    """``fn(*t)`` for each ``t`` of ``tasks``, yielded in the order of ``tasks``.

    >>> list(ordered(pow, [(2, 3), (3, 2)]))
    [8, 9]
    """
    check_backend(backend, workers, address)
    if backend == "ray":
        yield from _ray(fn, tasks, workers, address, in_flight)
        return
    if workers == 1:
        for t in tasks:
            yield fn(*t)
        return
    todo = iter(tasks)
    first = list(itertools.islice(todo, workers))  # no more processes than tasks: 2 matches start 2, not 256
    if not first:
        return
    pending: deque[Future[R]] = deque()
    with ProcessPoolExecutor(max_workers=len(first), mp_context=mp_context()) as pool:
        for t in itertools.chain(first, todo):
            pending.append(pool.submit(_guarded, fn, *t))
            if len(pending) >= workers * in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _ray(fn: Callable[..., R], tasks: Iterable[tuple[Any, ...]], workers: int, address: str | None,
         in_flight: int) -> Iterator[R]:
    import ray
    from ray.exceptions import RayTaskError

    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address is None:  # a local instance for this run only
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     object_store_memory=128 * 1024 * 1024, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        started = True
    remote = ray.remote(num_cpus=1, max_retries=0)(_guarded)
    pending: deque[Any] = deque()

    def get(ref: Any) -> R:
        try:
            value: R = ray.get(ref)
        except RayTaskError as exc:
            cause = exc.cause
            if isinstance(cause, CardspecError):
                raise CardspecError(str(cause)) from None
            raise
        return value

    try:
        for t in tasks:
            pending.append(remote.remote(fn, *t))
            if len(pending) >= workers * in_flight:
                yield get(pending.popleft())
        while pending:
            yield get(pending.popleft())
    finally:
        if started:
            ray.shutdown()
