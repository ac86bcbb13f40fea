"""numba's cache must not serve a kernel compiled against another version of the engine.

numba alone keys a cached kernel on its own file: a kernel calling a kernel of another file is
loaded stale once that file changes. The tests build such cases in a copy of the engine (probe
files) and run each version in a fresh process on one cache.
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

#: A kernel taking a named tuple: its cache index pickles the class by name.
NAMED = """from typing import NamedTuple

from engine.jit import kernel


class {name}(NamedTuple):
    a: int
    b: int


@kernel
def total(pair):
    return pair.a + pair.b


def ask():
    return total({name}(1, {b}))
"""


def engine_copy(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the engine under ``tmp_path`` and the environment that imports it, with a cache
    of its own and no bytecode: a probe file rewritten within the same second at the same size
    would be imported from its old bytecode (Python checks a source's whole-second mtime and
    size), and its kernel compiled afresh against the old module."""
    copy = tmp_path / "engine"
    shutil.copytree(
        Path(engine.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path),
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return copy, env


def answer(tmp_path: Path, env: dict[str, str], module: str) -> str:
    """What ``ask()`` of ``engine.<module>`` prints in a fresh process."""
    run = subprocess.run(
        [sys.executable, "-c", f"from engine.{module} import ask; print(ask())"],
        env=env,
        cwd=tmp_path,  # not the repository: its engine would come first
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_change_in_a_callees_file_recompiles_its_callers(tmp_path: Path) -> None:
    """Even when the callee's file keeps its size and modification time (an edit within the
    same second), which numba's own stamp would not notice."""
    copy, env = engine_copy(tmp_path)
    (copy / "probe_caller.py").write_text(CALLER)
    callee = copy / "probe_callee.py"
    answers = []
    for value in (1, 2):
        stamp = callee.stat().st_mtime_ns if callee.exists() else None
        callee.write_text(CALLEE.format(value=value))
        if stamp is not None:
            os.utime(callee, ns=(stamp, stamp))
        answers.append(answer(tmp_path, env, "probe_caller"))
    assert answers == ["1", "2"]
    assert any((tmp_path / "cache").rglob("*.nbi"))  # the kernels were cached, not just run


def test_a_renamed_named_tuple_recompiles(tmp_path: Path) -> None:
    """The old index names a class the module no longer has: read as stale, not a crash."""
    copy, env = engine_copy(tmp_path)
    answers = []
    for name, b in (("Pair", 2), ("Couple", 3)):
        (copy / "probe_named.py").write_text(NAMED.format(name=name, b=b))
        answers.append(answer(tmp_path, env, "probe_named"))
    assert answers == ["3", "4"]
