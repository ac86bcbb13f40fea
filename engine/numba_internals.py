"""Everything the engine takes from numba beyond its public API, in one place.

numba documents its decorators, ``numba.config`` and what its cache does, not the objects that do
it. The engine needs four things no public API offers: calls between kernels typed without
literal constants and no reference counting of the arrays a kernel borrows (``engine.jit``),
cache entries that change with every engine file and an unreadable cache index read as stale
(``engine.kernel_cache``), and the folder numba caches a kernel in (``pipeline.prepare``).
Each function below says which attribute it relies on, what that attribute must do, and why
nothing public does the job. The CPU description numba keys its cached code on does come from
public functions; it is here so that the pipeline asks this module, not numba.

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
from numba import config, types
from numba.core import caching, codegen

from engine.borrowed_refs import drop_borrowed_refcounts

#: Each internal relied on: the module that holds it and the attribute's path in that module.
RELIED_ON = (
    ("numba.core.dispatcher", "Dispatcher.get_call_template"),
    ("numba.core.dispatcher", "Dispatcher.stats"),
    ("numba.core.caching", "CacheImpl._locator_classes"),
    ("numba.core.caching", "_SourceFileBackedLocatorMixin"),
    ("numba.core.caching", "IndexDataCacheFile._load_index"),
    ("numba.core.codegen", "CPUCodeLibrary._optimize_final_module"),
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


#: LLVM refuses to read back a local name longer than this (1,024 by default); numba's block
#: labels carry the mangled names of the kernels inlined into them, which can be longer.
LONGEST_LOCAL_NAME = 1 << 24


def drop_borrowed_refcounts_when_compiling() -> None:
    """Have every kernel compiled from now on leave out the counting of the arrays it borrows
    (``engine.borrowed_refs``), after numba's own optimisation of its final module.

    Relies on: ``CPUCodeLibrary._optimize_final_module(self)`` optimises ``self._final_module``
    (an llvmlite ``ModuleRef`` holding the kernel and the kernels linked into it) in place, once
    per library before its code is made, cached or linked into a caller; numba's own text-based
    pruner (``remove_redundant_nrt_refct``) replaces ``_final_module`` there the same way.
    Nothing public does it: numba's options turn its pruner's parts on or off, and that pruner
    keeps the counting wherever its block-by-block matching fails (docs/compiling.md).
    """
    library = codegen.CPUCodeLibrary
    optimize = library._optimize_final_module
    if hasattr(optimize, "numba_original"):
        return
    llvm.set_option("", f"--non-global-value-max-name-size={LONGEST_LOCAL_NAME}")

    def optimize_then_drop(self: Any) -> None:
        optimize(self)
        text, dropped = drop_borrowed_refcounts(str(self._final_module))
        if dropped:
            module = llvm.parse_assembly(text)
            module.name = self._final_module.name
            self._final_module = module

    optimize_then_drop.numba_original = optimize  # type: ignore[attr-defined]
    library._optimize_final_module = optimize_then_drop


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
