"""A Dask worker plugin that turns a worker hostile, for tests that the pipeline process
survives one: Dask workers import it by name (a module apart, since it needs ``distributed``)."""

from __future__ import annotations

from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from tests.pipeline.worker_tasks import not_verdicts


class GradesGarbage(WorkerPlugin):
    """Replaces ``pipeline.tasks.grade_chunk`` on the worker with
    :func:`~tests.pipeline.worker_tasks.not_verdicts` until the plugin is removed."""

    name = "grades-garbage"

    def setup(self, worker: Any) -> None:
        import pipeline.tasks

        self.honest = pipeline.tasks.grade_chunk
        pipeline.tasks.grade_chunk = not_verdicts

    def teardown(self, worker: Any) -> None:
        import pipeline.tasks

        pipeline.tasks.grade_chunk = self.honest
