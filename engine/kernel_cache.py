"""numba's on-disk cache, made to notice a change anywhere in the engine.

numba keys each cached kernel on the source of its own file only. A kernel that calls kernels
or reads constants from other files (the pass loop calls every finder; the finders read the
technique ids of ``engine.logic.state``) is then loaded stale after those files change: after
an upgrade, a grade could run yesterday's finders. Here every engine file's cache entries also
carry a digest of all the engine's sources, so any change recompiles (once, as
``pipeline prepare`` does on a new machine) instead of loading old machine code.

A cache index whose signatures name a class the engine no longer has (a named tuple renamed
or removed) is read as stale too: numba unpickles an index before it compares source stamps,
and would fail on it instead of recompiling.

Importing this module installs both (through ``engine.numba_internals``, which holds every use
of numba's internals); ``engine.jit`` does so before any kernel exists.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from engine.numba_internals import add_cache_locators, read_unreadable_cache_index_as_stale

ENGINE = Path(__file__).resolve().parent


def _sources_digest() -> str:
    """One digest of every engine source file (names and contents)."""
    digest = hashlib.sha256()
    for source in sorted(ENGINE.rglob("*.py")):
        digest.update(str(source.relative_to(ENGINE)).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


SOURCES = _sources_digest()


def _in_engine(py_file: str) -> bool:
    return Path(py_file).resolve().is_relative_to(ENGINE)


#: What unpickling an index written by another version of the code can raise.
UNREADABLE = (AttributeError, ImportError, EOFError, TypeError, ValueError, pickle.UnpicklingError)


def install() -> None:
    """Key the cache entries of engine files on ``SOURCES`` too, and read an index that cannot
    be unpickled as stale (each once)."""
    read_unreadable_cache_index_as_stale(UNREADABLE)
    add_cache_locators("WholeEngine", SOURCES, _in_engine)


install()
