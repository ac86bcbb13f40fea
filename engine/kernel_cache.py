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

Importing this module installs both; ``engine.jit`` does so before any kernel exists.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any

from numba.core import caching

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


def _whole_engine(locator: type) -> type:
    """``locator`` restricted to engine files, its source stamp extended by ``SOURCES``."""

    class WholeEngine(locator):  # type: ignore[misc, valid-type]
        def get_source_stamp(self) -> Any:
            return super().get_source_stamp(), SOURCES

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _in_engine(py_file):
                return None
            return super().from_function(py_func, py_file)

    WholeEngine.__name__ = f"WholeEngine{locator.__name__}"
    return WholeEngine


#: What unpickling an index written by another version of the code can raise.
UNREADABLE = (AttributeError, ImportError, EOFError, TypeError, ValueError, pickle.UnpicklingError)


def _tolerant(load_index: Any) -> Any:
    """numba's index loader, returning no entries (stale) for an index it cannot unpickle."""

    def load(self: Any) -> dict:
        try:
            return load_index(self)
        except UNREADABLE:
            return {}

    load.tolerant = True
    return load


def install() -> None:
    """Put the engine's locators first in numba's list and make index loading tolerant (once),
    in numba's own order."""
    index = caching.IndexDataCacheFile
    if not getattr(index._load_index, "tolerant", False):
        index._load_index = _tolerant(index._load_index)
    classes = caching.CacheImpl._locator_classes
    if any(getattr(c, "__name__", "").startswith("WholeEngine") for c in classes):
        return
    own = [c for c in classes if issubclass(c, caching._SourceFileBackedLocatorMixin)]
    classes[:0] = [_whole_engine(c) for c in own]


install()
