"""The logic solver: candidate masks, one module of finders per family of techniques, and the
pass loop (``engine.logic.passes``) that records every step."""

from engine.logic.names import NAMES as TECHNIQUE_NAMES
from engine.logic.passes import (
    RUNGS,
    LogicRun,
    Record,
    Step,
    Workspace,
    techniques_mask,
    workspace,
)
from engine.logic.state import TECHNIQUES

__all__ = [
    "RUNGS",
    "TECHNIQUES",
    "TECHNIQUE_NAMES",
    "LogicRun",
    "Record",
    "Step",
    "Workspace",
    "techniques_mask",
    "workspace",
]
