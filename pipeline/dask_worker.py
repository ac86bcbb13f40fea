"""Dask workers that prepare the engine as they join, so no task pays for numba's compile.

A run on Dask registers :class:`PrepareEngine` with the cluster (``pipeline.parallel``): every
worker there now, and every worker that joins later, compiles the kernels a run needs, or loads
them from numba's cache on its machine, before it takes a task. Workers started by hand can do
the same at start-up: ``dask worker tls://host:8786 --preload pipeline.dask_worker`` (with
its ``--tls-ca-file``, ``--tls-cert`` and ``--tls-key``).

Each worker machine keeps its own cache (beside the engine's sources, or under
``NUMBA_CACHE_DIR``): the first worker on a machine compiles for a few minutes, the others
load. Machines with the same CPU may share one cache folder (``NUMBA_CACHE_DIR`` on a shared
disk); numba keys its cached code by CPU, so a different CPU compiles its own beside it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from pipeline.prepare import RUN


def warm_all(families: tuple[str, ...]) -> None:
    """Compile or load every kernel of ``families`` in this process."""
    from engine.warmup import warm

    for family in families:
        warm(family)


class PrepareEngine(WorkerPlugin):
    """Prepares the engine on each worker when the plugin is registered or the worker joins."""

    name = "sudoku-prepare-engine"

    def __init__(self, families: tuple[str, ...] = RUN) -> None:
        self.families = families

    async def setup(self, worker: Any) -> None:
        # off the worker's event loop, so it keeps answering the scheduler while it compiles
        await asyncio.get_running_loop().run_in_executor(None, warm_all, self.families)


async def dask_setup(worker: Any) -> None:
    """``--preload pipeline.dask_worker``: prepare before the worker takes its first task."""
    await PrepareEngine().setup(worker)
