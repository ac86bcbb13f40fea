"""How a command stops on SIGTERM: as on Ctrl-C, unwinding through every ``finally`` (partial
files removed, local workers stopped), then exit code 143.

The handler raises :class:`Terminated` wherever the main thread is. Where that is inside a
callback from C (numba loading a kernel from its cache calls back into Python from LLVM), the
exception is printed and dropped there, and the command would go on as if no signal had come.
So the handler also records the request, and the loops that wait on long work
(:mod:`pipeline.parallel`) call :func:`stop_if_terminated` after each result: a dropped
``Terminated`` is raised again there, at most one task later.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

TERMINATED = 143  # SIGTERM, as a shell reports it
_requested = threading.Event()


class Terminated(SystemExit):
    """SIGTERM arrived: unwinds the command like an exception, so cleanup code runs."""


def _terminate(signum: int, frame: object) -> NoReturn:
    _requested.set()
    raise Terminated(TERMINATED)


def stop_if_terminated() -> None:
    """Raise :class:`Terminated` if SIGTERM arrived (its first raise may have been dropped)."""
    if _requested.is_set():
        raise Terminated(TERMINATED)


@contextmanager
def terminate_cleanly() -> Iterator[None]:
    """For the block, SIGTERM raises :class:`Terminated` in the main thread (elsewhere a
    handler cannot be installed, and the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _requested.clear()
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        _requested.clear()
