"""A run stopped from outside leaves nothing behind: SIGTERM unwinds the command (exit 143, no
``.part`` file, no worker left), even when its first raise is dropped, and workers of a SIGKILLed
command exit on their own."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.parallel import TRACKER_WARNINGS, results_in_order
from pipeline.recipe import ParallelSpec
from pipeline.stopping import Terminated, terminate_cleanly

PIPELINE = Path(sys.executable).parent / "pipeline"
START_TIMEOUT = 90  # seconds for the command to reach its worker pool
GONE_TIMEOUT = 10  # seconds for every process of the command to end after the signal
MANY_GRIDS = "5000000"  # far more than the test lets it make: the pool is surely started


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def descendants(root: int) -> set[int]:
    """Every live process below ``root``, from /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) and stat[0] != "Z":
            parents[int(entry.name)] = stat[1]
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if (stat := _stat(pid)) and stat[0] != "Z"}


def start_with_workers(output: Path) -> tuple[subprocess.Popen, set[int]]:
    """``pipeline generate`` on two local workers, once both workers are running."""
    command = [str(PIPELINE), "generate", "-n", MANY_GRIDS, "--jobs", "2", "-q", "-o", str(output)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        workers = descendants(process.pid)
        if len(workers) >= 2 and list(output.parent.glob("*.part")):
            time.sleep(1.0)  # let the workers take their first tasks
            return process, descendants(process.pid)
        time.sleep(0.2)
    process.kill()
    pytest.fail(f"the command never started its workers: {process.communicate()[1]}")


def wait_gone(pids: set[int]) -> set[int]:
    deadline = time.monotonic() + GONE_TIMEOUT
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive(pids)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.slow
def test_sigterm_stops_workers_and_removes_partial_files(tmp_path: Path) -> None:
    output = tmp_path / "grids.parquet"
    process, workers = start_with_workers(output)
    # the resource trackers unlink what the killed workers held and would warn of it on the
    # terminal, after the command's last line (seen once): they start told not to
    trackers = [_cmdline(pid) for pid in workers if "resource_tracker" in _cmdline(pid)]
    assert trackers and all(f"-W{TRACKER_WARNINGS}" in cmd for cmd in trackers)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=GONE_TIMEOUT * 3)
    assert process.returncode == 143
    assert err.strip().splitlines()[-1] == "Error: terminated (SIGTERM); unfinished files removed"
    assert not wait_gone(workers)
    assert list(tmp_path.iterdir()) == []  # no .part file, and no half-written output


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.slow
def test_workers_exit_when_the_command_is_killed(tmp_path: Path) -> None:
    process, workers = start_with_workers(tmp_path / "grids.parquet")
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=GONE_TIMEOUT)
    assert workers and not wait_gone(workers)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the drop itself
def test_a_sigterm_dropped_inside_a_callback_from_c_still_stops_the_work() -> None:
    """numba calls back into Python from LLVM while it loads a kernel; an exception raised there
    is printed and dropped, so the work must stop at the next result instead."""
    callback = ctypes.CFUNCTYPE(None)(lambda: (os.kill(os.getpid(), signal.SIGTERM), time.sleep(1)))
    done = []

    def task(number: int) -> int:
        if number == 0:
            callback()  # the handler runs in here, and ctypes drops its exception
        done.append(number)
        return number

    with terminate_cleanly(), pytest.raises(Terminated):
        for _ in results_in_order(task, range(5), ParallelSpec(n_jobs=1)):
            pass
    assert done == [0]
