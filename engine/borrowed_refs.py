"""Reference counting of a kernel's borrowed arrays, dropped from its optimised LLVM IR.

numba counts references to every array a kernel holds: one atomic add when a variable takes an
array (an argument on entry, each copy an inlined kernel makes of its arguments) and one atomic
subtract when the variable dies. llvmlite's pruner removes only the pairs it can match block by
block, so the grader's kernels still made about 9,000 such calls per 17-clue puzzle, a third of
its time. For an array the kernel *borrowed* (an argument) they are needless: the caller holds
its own reference for the whole call, so the count never reaches zero inside, and a kernel
that keeps an argument beyond the call (returns it, stores it anywhere) must count it.

:func:`drop_borrowed_refcounts` removes, in each function of numba's calling convention (its
parameters named ``%arg.*``), every ``NRT_incref`` and ``NRT_decref`` of a parameter whose every
other use is a call (a callee borrows it in turn, and counts what it keeps) or a comparison.
Where LLVM merged the release of a parameter with that of an array the kernel owns into one
call on a ``phi`` (or ``select``) of the two, the parameter's entry becomes ``null``, which
``NRT_decref`` ignores; a merge left with only ``null`` is dropped too. A parameter with any other
use (a store, a ``phi`` that does more than release, a return) keeps all its counting.

It reads the IR as text, the way numba's own fallback pruner (``numba.core.runtime.nrtopt``)
does, so it depends on the text form of LLVM IR, not on numba's Python objects. An exception
leaves a kernel without giving back what it took, as numba's own raises do.
"""

from __future__ import annotations

import re

NAME = r'%(?:"[^"]+"|[-a-zA-Z$._0-9]+)'
TOKEN = re.compile(NAME)
REFCOUNT = re.compile(
    r"^\s*(?:tail |musttail |notail )?call void @NRT_(?:incref|decref)\(ptr(?: [a-z_()]+)* ("
    + NAME
    + r")\)"
)
DEFINE_PARAMETERS = re.compile(r"^define .*?@(?:\"[^\"]+\"|[-a-zA-Z$._0-9]+)\((.*)\)[^()]*\{\s*$")
MERGE = re.compile(r"^\s*(" + NAME + r") = (?:phi ptr|select i1 [^,]+, ptr) ")
MERGED_VALUE = {
    "phi": re.compile(r"\[ *(" + NAME + r"|null|undef|poison) *,"),
    "select": re.compile(r"ptr (" + NAME + r"|null|undef|poison)"),
}
#: Instructions that use a pointer without keeping it: a call borrows it, a comparison reads it.
BORROWING = ("call", "tail", "musttail", "notail", "icmp")


def drop_borrowed_refcounts(ir: str) -> tuple[str, int]:
    """``ir`` (a module's text) without the counting of borrowed arrays, and how many calls went."""
    lines = ir.split("\n")
    out: list[str] = []
    dropped = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.startswith("define ") and "%arg." in line:
            end = lines.index("}", i)
            body, count = _function_without_borrowed_refcounts(line, lines[i:end])
            out.extend(body)
            dropped += count
            i = end
    return "\n".join(out), dropped


def _function_without_borrowed_refcounts(define: str, body: list[str]) -> tuple[list[str], int]:
    parameters = _pointer_parameters(define)
    if not parameters:
        return body, 0
    refcount_of: dict[int, str] = {}  # line -> the pointer it counts
    merge_line: dict[str, int] = {}  # a merge's result -> its line
    for k, line in enumerate(body):
        if found := REFCOUNT.match(line):
            refcount_of[k] = found.group(1)
        elif found := MERGE.match(line):
            merge_line[found.group(1)] = k
    uses = _uses(body, parameters | set(merge_line), refcount_of, merge_line)
    releasing = _merges_that_only_count(merge_line, uses, refcount_of, body)
    borrowed = {
        parameter
        for parameter in parameters
        if all(_borrows(body, k, refcount_of, releasing) for k in uses[parameter])
    }
    if not borrowed:
        return body, 0
    body = list(body)
    by_null = re.compile(
        "(" + "|".join(re.escape(name) for name in borrowed) + r")(?![-a-zA-Z$._0-9])"
    )
    for merge in releasing:
        k = merge_line[merge]
        result, rest = body[k].split(" = ", 1)
        body[k] = f"{result} = {by_null.sub('null', rest)}"
    gone = borrowed | _merges_of_nothing(releasing, merge_line, body)
    kept = [line for k, line in enumerate(body) if refcount_of.get(k) not in gone]
    return kept, len(body) - len(kept)


def _pointer_parameters(define: str) -> set[str]:
    """The pointer parameters of numba's calling convention (``ptr %arg.values.0``)."""
    found = DEFINE_PARAMETERS.match(define)
    if not found:
        return set()
    names = set()
    for parameter in found.group(1).split(", "):
        tokens = TOKEN.findall(parameter)
        if parameter.startswith("ptr ") and tokens and tokens[-1].startswith("%arg."):
            names.add(tokens[-1])
    return names


def _uses(
    body: list[str], watched: set[str], refcount_of: dict[int, str], merge_line: dict[str, int]
) -> dict[str, list[int]]:
    """The lines that use each watched value (a merge's own line is not a use of its result)."""
    uses: dict[str, list[int]] = {name: [] for name in watched}
    for k, line in enumerate(body):
        if k in refcount_of:
            if refcount_of[k] in uses:
                uses[refcount_of[k]].append(k)
            continue
        for token in set(TOKEN.findall(line)):
            if token in uses and merge_line.get(token) != k:
                uses[token].append(k)
    return uses


def _merges_that_only_count(
    merge_line: dict[str, int], uses: dict[str, list[int]], refcount_of: dict[int, str], body
) -> set[str]:
    """The merges whose only uses are reference counting and other such merges."""
    releasing = set(merge_line)
    changed = True
    while changed:
        changed = False
        for merge in list(releasing):
            for k in uses[merge]:
                into = MERGE.match(body[k])
                if k not in refcount_of and not (into and into.group(1) in releasing):
                    releasing.discard(merge)
                    changed = True
                    break
    return releasing


def _borrows(body: list[str], k: int, refcount_of: dict[int, str], releasing: set[str]) -> bool:
    """Whether line ``k``'s use of a parameter leaves it borrowed."""
    if k in refcount_of:
        return True
    if into := MERGE.match(body[k]):
        return into.group(1) in releasing
    instruction = body[k].strip()
    if instruction.startswith("%") and " = " in instruction:
        instruction = instruction.split(" = ", 1)[1]
    return instruction.split(" ", 1)[0] in BORROWING


def _merges_of_nothing(
    releasing: set[str], merge_line: dict[str, int], body: list[str]
) -> set[str]:
    """The releasing merges whose values are all ``null`` or such merges."""
    nothing: set[str] = set()
    changed = True
    while changed:
        changed = False
        for merge in releasing - nothing:
            line = body[merge_line[merge]]
            kind = line.split(" = ", 1)[1].split(" ", 1)[0]
            values = MERGED_VALUE[kind].findall(line.split(" = ", 1)[1])
            if all(value == "null" or value in nothing for value in values):
                nothing.add(merge)
                changed = True
    return nothing
