"""Whether a worker's result is plain data of the type its task function declares.

A result comes back from another process (a local worker, or a Dask worker on another machine),
so before any check reads it, it must be what the task returns: a ``list[dict[str, Any]]`` of
rows is a list of dicts with string keys, a NamedTuple its own class with fields of their
declared types. Built-in types must match exactly (a ``str`` subclass could answer ``==`` as it
likes); other classes (``pyarrow.Table``, ``numpy.ndarray``) by ``isinstance``.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from typing import Any, Union, get_args, get_origin, get_type_hints


def returns(function: Callable[..., Any]) -> Any:
    """The return type ``function`` declares (``Any`` when it declares none)."""
    return get_type_hints(function).get("return", Any)


def shown(hint: Any) -> str:
    """A type hint as a reader writes it: ``list[dict[str, Any]]``, ``Verdicts``."""
    if hint is None or hint is types.NoneType:
        return "None"
    if isinstance(hint, type) and get_origin(hint) is None:
        return hint.__name__
    return str(hint).replace("typing.", "")


def _is(value: Any, kind: type) -> bool:
    return type(value) is kind if kind.__module__ == "builtins" else isinstance(value, kind)


def misfit(value: Any, hint: Any, where: str = "the result") -> str | None:
    """Where ``value`` departs from the type ``hint`` (e.g. ``the result[2]['score'] is of type
    str, not float``), or None when it fits."""
    if hint is Any:
        return None
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        if any(misfit(value, option) is None for option in args):
            return None
        return f"{where} is of type {type(value).__name__}, not {shown(hint)}"
    kind = types.NoneType if hint is None else origin or hint
    if not _is(value, kind):
        return f"{where} is of type {type(value).__name__}, not {shown(hint)}"
    parts: Iterable[tuple[Any, Any, str]]  # (value, hint, where) of each part to check
    if origin is list:
        parts = ((item, args[0], f"{where}[{i}]") for i, item in enumerate(value))
    elif origin is dict:
        parts = (
            part
            for key, item in value.items()
            for part in ((key, args[0], f"a key of {where}"), (item, args[1], f"{where}[{key!r}]"))
        )
    elif origin is tuple:
        if args[-1:] == (Ellipsis,):  # tuple[X, ...]
            args = (args[0],) * len(value)
        if len(value) != len(args):
            return f"{where} has {len(value)} items, not {len(args)}"
        pairs = enumerate(zip(value, args, strict=True))
        parts = ((item, arg, f"{where}[{i}]") for i, (item, arg) in pairs)
    elif issubclass(kind, tuple) and hasattr(kind, "_fields"):  # a NamedTuple
        fields = get_type_hints(kind)
        parts = ((getattr(value, name), fields[name], f"{where}.{name}") for name in kind._fields)
    else:
        return None
    return next((found for part in parts if (found := misfit(*part)) is not None), None)
