"""Recipes: shipped configs load, each mistake names its key, fuzzed mappings fail cleanly."""

from __future__ import annotations

import copy
import math
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from engine.dig import tiers_for
from engine.tiers import TIERS
from pipeline import recipe_schema
from pipeline.recipe import (
    RecipeError,
    bands_for,
    load_recipe,
    parse_recipe,
    recipe_hash,
    with_overrides,
)

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SOURCE = "test.toml"

VALID = """
title = "Test Book"
seed = 7

[tiers.gentle]
score = [0.5, 2.0]
iterations = [1, 5]
clues = [30, 40]
hardest = "hidden_single"
needs = "naked_single"

[parallel]
n_jobs = 2
chunk_size = 8

[print]
trim = "6x9"
answers_per_page = 4

[[sections]]
tier = "gentle"
count = 3

[[sections]]
size = 6
box = "2x3"
tier = "easy"
count = 2
symmetry = "rotate180"

[[sections]]
size = 16
tier = "hard"
count = 1
layout = 1
"""


def valid() -> dict[str, Any]:
    return tomllib.loads(VALID)


def with_change(path: tuple, value: object) -> dict[str, Any]:
    """The valid mapping with the key at ``path`` set to ``value`` (deleted when value is DROP)."""
    mapping = valid()
    *parents, last = path
    target: Any = mapping
    for part in parents:
        target = target.setdefault(part, {}) if isinstance(part, str) else target[part]
    if value is DROP:
        del target[last]
    else:
        target[last] = value
    return mapping


DROP = object()


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.name)
def test_shipped_configs_load(path):
    recipe = load_recipe(path)
    assert recipe.sections and recipe.source == str(path)
    for section in recipe.sections:
        assert section.box_rows * section.box_cols == section.size


def test_nightly_is_a_real_book():
    recipe = load_recipe(CONFIGS / "nightly.toml")
    tiers = [section.tier for section in recipe.sections]
    assert tiers == ["easy", "medium", "hard", "expert", "extreme"]
    assert {(section.size, section.count) for section in recipe.sections} == {(9, 40)}
    assert recipe.seed is None and recipe.timezone == "UTC"  # a new book each day


def test_kids_and_giant_shapes():
    kids = {section.box for section in load_recipe(CONFIGS / "kids.toml").sections}
    giant = {section.size for section in load_recipe(CONFIGS / "giant.toml").sections}
    assert kids == {"2x2", "2x3"}
    assert giant == {16}


def test_valid_mapping_and_defaults():
    recipe = parse_recipe(valid(), SOURCE)
    first, six, sixteen = recipe.sections
    assert (first.title, first.size, first.box, first.layout) == ("Gentle", 9, "3x3", 4)
    assert (six.box, six.symmetry, sixteen.box, sixteen.layout) == ("2x3", "rotate180", "4x4", 1)
    assert recipe.tier("gentle").score == (0.5, 2.0)
    assert recipe.tier("easy") is None
    bands = bands_for(recipe.tiers, 3, 3)
    # the recipe's own bands first, as a run has them: "gentle" is not claimed by "easy" first
    assert list(bands) == ["gentle", *TIERS] and bands["gentle"] is recipe.tier("gentle")
    assert bands_for(recipe.tiers, 4, 4)["medium"] == tiers_for(engine.geometry(4, 4))["medium"]
    assert recipe.parallel.backend == "loky" and recipe.parallel.scheduler is None
    assert recipe.print.options.trim == "6x9" and recipe.print.about
    assert str(recipe.output) == "output" and recipe.author == ""


def test_custom_trim_and_dask():
    mapping = with_change(("print", "trim"), {"width": 7, "height": 10})
    mapping["parallel"].update(backend="dask", scheduler="tcp://127.0.0.1:8786", insecure=True)
    recipe = parse_recipe(mapping, SOURCE)
    assert recipe.print.options.trim_size[0] > 0
    assert (recipe.print.options.width, recipe.print.options.height) == (7.0, 10.0)
    assert recipe.parallel.scheduler == "tcp://127.0.0.1:8786"


def test_tls_files_are_relative_to_the_recipe():
    mapping = valid()
    mapping["parallel"].update(backend="dask", scheduler="tls://cluster.example.org:8786")
    mapping["parallel"].update(tls_ca="certs/ca.pem", tls_cert="/etc/me.pem", tls_key="me.key")
    spec = parse_recipe(mapping, SOURCE, Path("/books")).parallel
    assert (spec.tls_ca, spec.tls_cert) == (Path("/books/certs/ca.pem"), Path("/etc/me.pem"))
    assert spec.tls_key == Path("/books/me.key") and not spec.insecure


def test_variants_read_in_one_spelling_and_classic_recipes_keep_their_hash():
    base = parse_recipe(valid(), SOURCE)
    assert {section.variant for section in base.sections} == {"classic"}
    spelled = parse_recipe(with_change(("sections", 0, "variant"), "X + Jigsaw"), SOURCE)
    assert spelled.sections[0].variant == "jigsaw+x"
    classic = with_change(("sections", 0, "variant"), "classic")
    assert recipe_hash(parse_recipe(classic, SOURCE)) == recipe_hash(base)
    assert recipe_hash(spelled) != recipe_hash(base)
    book = load_recipe(CONFIGS / "variants.toml")
    assert {section.variant for section in book.sections} == {"x", "windoku", "jigsaw", "jigsaw+x"}


def test_box_alone_sets_the_size():
    recipe = parse_recipe(with_change(("sections", 0, "box"), "3x4"), SOURCE)
    assert (recipe.sections[0].size, recipe.sections[0].box) == (12, "3x4")


# (path to change, new value or DROP, dotted key in the message, words of what is allowed)
MISTAKES = [
    (("title",), DROP, "title", "required"),
    (("title",), "  ", "title", "non-empty"),
    (("seed",), -1, "seed", "integer from 0 to 9223372036854775807"),
    (("seed",), True, "seed", "integer from 0"),
    (("seed",), "7", "seed", "integer from 0"),
    (("seed",), 2**63, "seed", "integer from 0 to 9223372036854775807"),
    (("author",), 3, "author", "a string"),
    (("timezone",), "Mars/Olympus", "timezone", "IANA time zone"),
    (("timezone",), "../etc", "timezone", "IANA time zone"),
    (("sections", 0, "source"), "missing.sdk", "sections[0].source", "a puzzle file"),
    (("sections", 1, "source"), "test_recipe.py", "sections[1].symmetry", "shapes dug puzzles"),
    (("sections", 0, "order"), "hardest", "sections[0].order", "only to a section with source"),
    (("colour",), "red", "colour", "allowed keys: title"),
    (("sections",), [], "sections", "[[sections]]"),
    (("sections", 1), 5, "sections[1]", "a table"),
    (("sections", 2, "layout"), 3, "sections[2].layout", "1, 2, 4, 6"),
    (("sections", 0, "size"), 7, "sections[0].size", "7 is prime"),
    (("sections", 0, "size"), 65, "sections[0].size", "from 4 to 64"),
    (("sections", 1, "box"), "3x3", "sections[1].box", "multiplying to 6"),
    (("sections", 1, "box"), "2by3", "sections[1].box", "ROWSxCOLS"),
    (("sections", 0, "tier"), "impossible", "sections[0].tier", "easy, medium"),
    (("sections", 0, "tier"), DROP, "sections[0].tier", "required"),
    (("sections", 0, "count"), 0, "sections[0].count", "integer from 1 to 1000000"),
    (("sections", 0, "count"), 10**15, "sections[0].count", "integer from 1 to 1000000"),
    (("sections", 0, "symmetry"), "spiral", "sections[0].symmetry", "rotate180"),
    (("sections", 0, "minimal"), "yes", "sections[0].minimal", "true or false"),
    (("sections", 2, "variant"), "xx", "sections[2].variant", "unknown variant 'xx': choose"),
    (("sections", 0, "variant"), "classic+x", "sections[0].variant", "does not combine"),
    (("sections", 0, "variant"), 9, "sections[0].variant", "killer, windoku, x joined by '+'"),
    (("sections", 1, "variant"), "windoku", "sections[1].variant", "a 9x9 variant, not 6x6"),
    (("sections", 1, "variant"), "jigsaw", "sections[1].box", "regions replace the boxes"),
    (("sections", 0, "colour"), 1, "sections[0].colour", "allowed keys"),
    (("parallel", "backend"), "ray", "parallel.backend", "loky, dask"),
    (("parallel", "scheduler"), "tcp://127.0.0.1:8786", "parallel.scheduler", "insecure"),
    (("parallel", "scheduler"), "localhost:8786", "parallel.scheduler", "tcp://host:port"),
    (("parallel", "n_jobs"), 0, "parallel.n_jobs", "-1"),
    (("parallel", "chunk_size"), 0, "parallel.chunk_size", "integer >= 1"),
    (("print", "trim"), "b5", "print.trim", "letter, a4"),
    (
        ("print", "trim"),
        {"width": 1, "height": 11},
        "print.trim.width",
        "1 in is outside 3.0-20.0",
    ),
    (("print", "trim"), {"width": 7}, "print.trim.height", "required"),
    (("print", "imposition"), "saddle-stitch", "print.imposition", "needs binding 'saddle-stitch'"),
    (("print", "binding"), "spiral", "print.binding", "perfect, saddle-stitch"),
    (("print", "answers_per_page"), 0, "print.answers_per_page", "0 is outside 1-16"),
    (("print", "about"), 1, "print.about", "true or false"),
    (("tiers", "gentle", "score"), [5, 1], "tiers.gentle.score", "above max"),
    (("tiers", "gentle", "score"), [math.nan, 3.0], "tiers.gentle.score", "no nan"),
    (("tiers", "gentle", "score"), [1.0, math.nan], "tiers.gentle.score", "no nan"),
    (("tiers", "gentle", "score"), [math.inf, math.inf], "tiers.gentle.score", "finite"),
    (("tiers", "gentle", "score"), [0.0, 0.5], "sections[0].tier", "no puzzle scores below"),
    (("tiers", "gentle", "clues"), [5, 10], "sections[0].tier", "[tiers.gentle]"),
    (("tiers", "gentle", "clues"), [90, 95], "sections[0].tier", "the grid has 81 cells"),
    (("sections", 2, "tier"), "medium", "sections[2].tier", "minimal=False"),
    (("tiers", "gentle", "clues"), [1.5, 2], "tiers.gentle.clues", "[min, max] integers"),
    (("tiers", "gentle", "hardest"), "magic", "tiers.gentle.hardest", "x_wing"),
    (("tiers", "gentle", "needs"), "x_wing", "tiers.gentle.needs", "harder than"),
    (("tiers", "gentle", "level"), 1, "tiers.gentle.level", "a band has score"),
    (("tiers", "gentle"), "hard", "tiers.gentle", "a table"),
    (("tiers", "Bad Name"), {}, "tiers.Bad Name", "lower-case"),
]


@pytest.mark.parametrize(
    ("path", "value", "key", "allowed"), MISTAKES, ids=lambda v: "missing" if v is DROP else str(v)
)
def test_each_mistake_names_its_key(path, value, key, allowed):
    with pytest.raises(RecipeError) as caught:
        parse_recipe(with_change(path, value), SOURCE)
    message = str(caught.value)
    assert message.startswith(f"{SOURCE}: {key}: ")
    assert allowed in message


def test_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('title = "x"\nseed = 1\ncount = = 3\n')
    with pytest.raises(RecipeError, match=r"broken\.toml: TOML syntax error: .*line 3"):
        load_recipe(path)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(RecipeError, match=r"nowhere\.toml: cannot read recipe"):
        load_recipe(tmp_path / "nowhere.toml")


def test_file_errors_name_the_file(tmp_path):
    path = tmp_path / "book.toml"
    path.write_text(VALID.replace("count = 3", "count = -3"))
    with pytest.raises(RecipeError, match=r"book\.toml: sections\[0\]\.count: got -3"):
        load_recipe(path)


def test_recipe_hash_tracks_content_not_run_settings():
    base = recipe_hash(parse_recipe(valid(), SOURCE))
    assert base == recipe_hash(parse_recipe(valid(), "elsewhere.toml"))
    moved = with_change(("output",), "/tmp/other")
    moved["parallel"]["n_jobs"] = 1
    assert recipe_hash(parse_recipe(moved, SOURCE)) == base
    for path, value in [(("seed",), 8), (("sections", 0, "count"), 4), (("print", "bleed"), True)]:
        assert recipe_hash(parse_recipe(with_change(path, value), SOURCE)) != base
    assert len(base) == 64 and int(base, 16) >= 0


# Anything TOML can hold, nested a little.
toml_values = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["3x3", "2x3", "dask", "letter", "x_wing", "tcp://h:1", "easy", "none"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def draw_location(data: st.DataObject, node: Any) -> tuple[Any, Any]:
    """A (container, key) inside a nested mapping, going one level deeper by a coin toss, so that
    top-level keys are hit as often as deep ones."""
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        inner = node[key]
        if not (isinstance(inner, dict | list) and inner and data.draw(st.booleans())):
            return node, key
        node = inner


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_mutations_raise_only_recipe_errors(data):
    mapping = valid()
    for _ in range(data.draw(st.integers(1, 3))):
        if not mapping:
            break
        parent, key = draw_location(data, mapping)
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[key] = data.draw(toml_values)
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(max_size=8))] = data.draw(toml_values)
        else:
            parent.append(data.draw(toml_values))
    before = copy.deepcopy(mapping)
    try:
        recipe = parse_recipe(mapping, SOURCE)
    except RecipeError as exc:
        assert str(exc).startswith(f"{SOURCE}: ")
    else:
        assert recipe_hash(recipe)
    assert mapping == before  # the caller's mapping is left as it was


def test_overrides_are_checked_like_the_file():
    recipe = parse_recipe(valid(), SOURCE)
    changed = with_overrides(recipe, output="elsewhere", n_jobs=1, seed=9)
    assert (str(changed.output), changed.parallel.n_jobs, changed.seed) == ("elsewhere", 1, 9)
    assert changed.parallel.chunk_size == recipe.parallel.chunk_size
    assert with_overrides(recipe) == recipe
    assert recipe_hash(with_overrides(recipe, output="x", n_jobs=1)) == recipe_hash(recipe)
    with pytest.raises(RecipeError, match=r"parallel\.scheduler: tcp://10\.0\.0\.1:8786 is plain"):
        with_overrides(recipe, backend="dask", scheduler="tcp://10.0.0.1:8786")
    dask = with_overrides(recipe, backend="dask", scheduler="tcp://10.0.0.1:8786", insecure=True)
    assert dask.parallel.backend == "dask" and dask.parallel.insecure
    assert recipe_hash(dask) == recipe_hash(recipe)
    with pytest.raises(RecipeError, match=r"tls://h:1 is tls://: tls_ca and tls_cert \(--tls-ca"):
        with_overrides(recipe, backend="dask", scheduler="tls://h:1")
    ca, cert = Path("ca.pem"), Path("me.pem")
    tls = with_overrides(recipe, backend="dask", scheduler="tls://h:1", tls_ca=ca, tls_cert=cert)
    assert (tls.parallel.tls_ca, tls.parallel.tls_cert, tls.parallel.tls_key) == (ca, cert, None)
    assert recipe_hash(tls) == recipe_hash(recipe)
    private = with_overrides(recipe, backend="dask")  # no scheduler: a private TLS cluster
    assert private.parallel.backend == "dask" and private.parallel.scheduler is None
    with pytest.raises(RecipeError, match=r"command-line options: parallel\.n_jobs: got 0"):
        with_overrides(recipe, n_jobs=0)
    with pytest.raises(RecipeError, match=r"command-line options: seed: got -2"):
        with_overrides(recipe, seed=-2)


def test_the_documented_key_list_is_the_declared_one() -> None:
    """docs/recipes.md is generated from the schema; regenerate it with
    ``python -m pipeline.recipe_schema > docs/recipes.md``."""
    documented = (CONFIGS.parent / "docs" / "recipes.md").read_text(encoding="utf-8")
    assert documented == recipe_schema.markdown()
    for table in recipe_schema.TABLES:
        for key in table.keys:
            assert f"| `{key.name}` | {key.allowed} |" in documented


READ_TABLES = ("", "parallel", "sections")  # tables whose keys the reader checks one by one
HOSTILE = {
    "many sections": "[[sections]]\ntier = 'easy'\ncount = 1000000\n" * 2_000,
    "tiny sections": "[[sections]]\ntier = 'easy'\ncount = 1\n" * 20_000,
    "too many pages": "[[sections]]\ntier = 'easy'\ncount = 100000\nlayout = 6\n",
    "deep arrays": "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "deep tables": "x = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n",
    "huge string": f'author = "{"x" * 2_000_000}"\n[[sections]]\ntier = "easy"\ncount = 1\n',
    "long dotted key": "a" + ".a" * 100_000 + " = 1\n",
    "huge integer": f"x = {'9' * 5_000}\n",
}
HOSTILE_FAULT = {
    "many sections": "sections: 2000 tables; a recipe may have 200 at most",
    "tiny sections": "sections: 20000 tables; a recipe may have 200 at most",
    "too many pages": "sections: the puzzles alone fill 16667 pages",
    "deep arrays": "nested too deep",
    "deep tables": "nested too deep",
    "huge string": "over 1048576 bytes",
    "long dotted key": "over 2000 '.' characters",
    "huge integer": "a value cannot be read",
}
#: Runs ``pipeline`` and prints its exit code, the peak memory of it alone (KB) and its seconds.
MEASURED = (
    "import resource, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,\n"
    "      time.perf_counter() - start)\n"
    "print(done.stderr, end='')\n"
)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_recipe_is_refused_at_once_naming_its_fault(tmp_path: Path, case: str) -> None:
    """The real CLI: exit 2 with one Error line before any work, in the memory of the command's
    imports (the 2,000 sections of a million used to grow to 9 GB; the figures of a fresh
    process: bench/recipe_limits_bench.py)."""
    recipe = tmp_path / "hostile.toml"
    recipe.write_text('title = "Hostile"\nseed = 1\n' + HOSTILE[case])
    script = Path(sys.executable).with_name("pipeline")
    command = [sys.executable, "-c", MEASURED, str(script), "run", str(recipe), "-q"]
    first, *errors = subprocess.run(command, capture_output=True, text=True).stdout.splitlines()
    code, peak_kb, _ = first.split()
    assert int(code) == 2 and len(errors) == 1
    assert errors[0].startswith(f"Error: {recipe}") and HOSTILE_FAULT[case] in errors[0]
    assert int(peak_kb) < 500 << 10, peak_kb


@settings(max_examples=300, deadline=None)
@given(
    table=st.sampled_from(
        [t for t in recipe_schema.TABLES if t.name in ("", "parallel", "sections")]
    ),
    value=st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        st.text(max_size=20),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    ),
    data=st.data(),
)
def test_any_value_of_any_key_loads_or_names_that_key(table, value, data) -> None:
    key = data.draw(st.sampled_from(table.names))
    assume(value is not None)  # TOML has no null
    mapping = tomllib.loads(VALID)
    where = mapping if not table.name else mapping.setdefault(table.name, {})
    if table.name == "sections":
        where = mapping["sections"][0]
    where[key] = value
    try:
        parse_recipe(mapping, SOURCE)
    except RecipeError as exc:
        message = str(exc)
        named = ".".join(part for part in (table.name, key) if part)
        named = named.replace("sections.", "sections[0].")
        # the key itself, a key it depends on in the same section, or a limit of the whole book
        assert message.startswith(f"{SOURCE}: ")
        assert any(part in message for part in (named, "sections[0].", ": sections: ")), message
