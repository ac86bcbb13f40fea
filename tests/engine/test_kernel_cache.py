"""numba's cache must not serve a kernel compiled against another version of the engine.

numba alone keys a cached kernel on its own file: a kernel calling a kernel of another file is
loaded stale once that file changes. The test builds that case in a copy of the engine (two
probe files, the caller's unchanged) and runs each version in a fresh process on one cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import engine

CALLER = """from engine.jit import kernel
from engine.probe_callee import answer


@kernel
def ask():
    return answer()
"""
CALLEE = """from engine.jit import kernel

ANSWER = {value}


@kernel
def answer():
    return ANSWER
"""


def test_a_change_in_a_callees_file_recompiles_its_callers(tmp_path: Path) -> None:
    copy = tmp_path / "engine"
    shutil.copytree(
        Path(engine.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    (copy / "probe_caller.py").write_text(CALLER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    script = "from engine.probe_caller import ask; print(ask())"
    answers = []
    for value in (1, 2):
        (copy / "probe_callee.py").write_text(CALLEE.format(value=value))
        run = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            cwd=tmp_path,  # not the repository: its engine would come first
            capture_output=True,
            text=True,
            check=True,
        )
        answers.append(run.stdout.strip())
    assert answers == ["1", "2"]
    assert any((tmp_path / "cache").rglob("*.nbi"))  # the kernels were cached, not just run
