"""Everything the engine takes from numba beyond its public API, in one place.

numba documents its decorators, ``numba.config`` and what its cache does, not the objects that do
it. The engine needs four things no public API offers: calls between kernels typed without
literal constants and no reference counting of a caller's arrays where a callee may raise
(``engine.jit``), cache entries that change with every engine file and an unreadable cache index
read as stale (``engine.kernel_cache``), and the folder numba caches a kernel in
(``pipeline.prepare``). Each function below says which attribute it relies on, what
that attribute must do, and why nothing public does the job. The CPU description numba keys its
cached code on does come from public functions; it is here so that the pipeline asks this module,
not numba.

:func:`missing_internals` names each attribute relied on that the installed numba lacks; a test
asserts there is none, so a numba release that moves one fails there, by name (pyproject.toml
bounds numba to the releases tested).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm
from llvmlite import ir
from numba import config, types
from numba.core import caching, callconv

#: Each internal relied on: the module that holds it and the attribute's path in that module.
RELIED_ON = (
    ("numba.core.dispatcher", "Dispatcher.get_call_template"),
    ("numba.core.dispatcher", "Dispatcher.stats"),
    ("numba.core.caching", "CacheImpl._locator_classes"),
    ("numba.core.caching", "_SourceFileBackedLocatorMixin"),
    ("numba.core.caching", "IndexDataCacheFile._load_index"),
    ("numba.core.callconv", "CPUCallConv.return_status_propagate"),
    ("numba.core.callconv", "CPUCallConv.check_try_status"),
    ("numba.core.callconv", "CPUCallConv._get_excinfo_argument"),
    ("numba.core.callconv", "CPUCallConv._return_errcode_raw"),
)
#: What a source-file cache locator subclass overrides or calls (``_CacheLocator``'s interface;
#: numba's developer notes, "Cache Locators", describe the locators).
LOCATOR_METHODS = ("from_function", "get_source_stamp", "get_cache_path")


def missing_internals() -> list[str]:
    """The dotted names of the numba internals this module relies on that numba lacks."""
    missing = [f"{module}.{path}" for module, path in RELIED_ON if not _resolves(module, path)]
    if missing:
        return missing
    locators = _source_file_locators()
    if not locators:
        missing.append("numba.core.caching.CacheImpl._locator_classes (no source-file locator)")
    return missing + [
        f"numba.core.caching.{locator.__name__}.{method}"
        for locator in locators
        for method in LOCATOR_METHODS
        if not callable(getattr(locator, method, None))
    ]


def _resolves(module: str, path: str) -> bool:
    try:
        owner = importlib.import_module(module)
    except ImportError:
        return False
    for attribute in path.split("."):
        if not hasattr(owner, attribute):
            return False
        owner = getattr(owner, attribute)
    return True


def type_calls_without_literals(dispatcher: Any) -> None:
    """Make calls to ``dispatcher`` from other kernels typed on their arguments' plain types.

    A call from compiled code passing a constant is typed with the constant as a literal
    (``Literal[int](22)``), and numba compiles the callee anew for each value. Relies on: numba
    types such a call by calling ``get_call_template(args, kws)`` on the dispatcher object
    (``numba.core.types.Dispatcher.get_call_type``), so an attribute of the instance replaces the
    method; ``args`` and ``kws`` are numba types, and the result is what the method returns.
    Nothing public does it: ``njit`` has no option against literal specialisation, a constant
    passed through a variable is still typed as a literal, and the alternatives (``np.int64(22)``
    at every call site, or an explicit signature for every kernel) are kept by hand: a call site
    that forgot would silently compile once per value.
    """
    call_template = dispatcher.get_call_template

    def plain_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        plain = {name: types.unliteral(value) for name, value in kws.items()}
        return call_template(tuple(types.unliteral(arg) for arg in args), plain)

    dispatcher.get_call_template = plain_call_template


#: The metadata numba puts on the store of an exception it raises; llvmlite's reference-count
#: pruner (the RefPrune pass's "fanout_raise" part) takes a block holding one for a raise.
EXCEPTION_OUTPUT = "numba_exception_output"


def prune_refcounts_where_a_callee_raises() -> None:
    """Let numba's reference-count pruner take a callee's exception, passed on, for a raise.

    A kernel holds a reference to each array it takes, got on entry and given back on return:
    an atomic add and subtract each. The pruner drops the pair when every path from entry gives
    it back or raises. A kernel that calls another (not inlined) also returns by passing the
    callee's exception on, which numba does not mark as a raise, so there the pairs stayed.

    Marked here as numba marks its own raises (either kind of exit leaks what it holds, as
    numba's raises do), with an atomic store, which LLVM does not merge with the normal return's
    store (a merge drops the mark). Relies on: ``CPUCallConv.return_status_propagate(builder,
    status)`` stores the callee's ``status.excinfoptr`` in the caller's excinfo argument
    (``_get_excinfo_argument``) and returns ``status.code`` unless inside a ``try``
    (``check_try_status``). Nothing public does it: numba has no option for it.
    """
    convention = callconv.CPUCallConv
    original = convention.return_status_propagate
    if hasattr(original, "numba_original"):
        return

    def return_status_propagate(self: Any, builder: Any, status: Any) -> None:
        in_try = self.check_try_status(builder).in_try
        excinfo = self._get_excinfo_argument(builder.function)
        store = builder.store_atomic(status.excinfoptr, excinfo, "monotonic", 8)
        store.set_metadata(EXCEPTION_OUTPUT, builder.module.add_metadata([ir.IntType(1)(1)]))
        with builder.if_then(builder.not_(in_try)):
            self._return_errcode_raw(builder, status.code)

    return_status_propagate.numba_original = original  # type: ignore[attr-defined]
    convention.return_status_propagate = return_status_propagate


def cache_folder(dispatcher: Any) -> Path:
    """The folder numba caches ``dispatcher``'s compiled code in (made with ``cache=True``).

    Relies on: ``Dispatcher.stats`` (a public name, but not in numba's reference) is a named
    tuple whose ``cache_path`` is the folder numba's cache locator chose for the function. Not
    derived from ``numba.config.CACHE_DIR``: under it numba picks a subfolder named by a hash of
    the source folder, and without it falls back from ``__pycache__`` beside the source to a
    per-user folder when ``__pycache__`` is not writable; both rules are numba's own, not
    documented.
    """
    return Path(dispatcher.stats.cache_path)


def add_cache_locators(name: str, stamp: object, covers: Callable[[str], bool]) -> None:
    """Put before numba's cache locators (once per ``name``) a copy of each source-file locator
    that serves only the files ``covers`` accepts and adds ``stamp`` to their source stamp, so a
    cached kernel of those files is loaded only while ``stamp`` is unchanged.

    Relies on: numba tries the classes of the list ``CacheImpl._locator_classes`` in order when a
    ``cache=True`` function is made, the first whose ``from_function(py_func, py_file)`` returns a
    locator wins, and the locator's ``get_source_stamp()`` (any picklable value) is stored in the
    cache index and compared on load; numba's source-file locators are the subclasses of
    ``_SourceFileBackedLocatorMixin``. Nothing public does it: numba keys a cache entry on its own
    file only. ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba 0.67 on) chooses locators for every cached
    function of the process from the environment, where it would override the user's own choice.
    """
    classes = caching.CacheImpl._locator_classes
    if any(getattr(locator, "added_by", None) == name for locator in classes):
        return
    classes[:0] = [_restricted(locator, name, stamp, covers) for locator in _source_file_locators()]


def _source_file_locators() -> list[type]:
    mixin = caching._SourceFileBackedLocatorMixin
    return [locator for locator in caching.CacheImpl._locator_classes if issubclass(locator, mixin)]


def _restricted(locator: type, name: str, stamp: object, covers: Callable[[str], bool]) -> type:
    class Restricted(locator):  # type: ignore[misc, valid-type]
        added_by = name

        def get_source_stamp(self) -> Any:
            return super().get_source_stamp(), stamp

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not covers(py_file):
                return None
            return super().from_function(py_func, py_file)

    Restricted.__name__ = Restricted.__qualname__ = f"{name}{locator.__name__}"
    return Restricted


def read_unreadable_cache_index_as_stale(errors: tuple[type[BaseException], ...]) -> None:
    """Make numba read a cache index that raises one of ``errors`` while loading as empty (stale:
    the kernel compiles again and the index is rewritten), instead of failing (once).

    Relies on: ``IndexDataCacheFile._load_index(self)`` unpickles the index (after comparing
    numba's version, before comparing source stamps) and returns its entries as a dict, an empty
    one meaning stale; numba's saving calls it too. Nothing public does it: an index naming a class
    the engine no longer has raises inside numba's cache lookup.
    """
    index = caching.IndexDataCacheFile
    load_index = index._load_index
    if getattr(load_index, "tolerant", False):
        return

    def load(self: Any) -> dict:
        try:
            return load_index(self)
        except errors:
            return {}

    load.tolerant = True  # type: ignore[attr-defined]
    index._load_index = load


def cpu_description() -> tuple[str, str, str]:
    """The target triple, CPU name and CPU features numba compiles for, which it keys its cached
    code on (numba's own ``magic_tuple()``), from llvmlite's public functions and the documented
    overrides ``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES`` and ``NUMBA_ENABLE_AVX``."""
    name = llvm.get_host_cpu_name() if config.CPU_NAME is None else config.CPU_NAME
    return llvm.get_process_triple(), name, _cpu_features()


def _cpu_features() -> str:
    if config.CPU_FEATURES is not None:
        return config.CPU_FEATURES
    try:
        features = llvm.get_host_cpu_features()
    except RuntimeError:  # LLVM cannot tell on this host: numba compiles with none
        return ""
    if not config.ENABLE_AVX:
        for feature in features:
            if feature.startswith("avx"):
                features[feature] = False
    return features.flatten()
