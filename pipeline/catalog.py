"""The catalog: every puzzle already printed in a book, shared by all runs into one output folder,
so that no puzzle is ever printed twice.

It is one SQLite database, ``<output>/catalog.sqlite``, in WAL mode (a reader never waits for a
writer), with a busy timeout (writers queue instead of failing) and foreign keys on. Its tables:

- ``books``: one row per printed book: run id, book (the title's slug), when it was printed;
- ``puzzles``: one row per printed puzzle, keyed by its id (a hash of its canonical key, so a
  disguised copy has the same one, and a variant puzzle never has a classic puzzle's:
  :mod:`pipeline.variants`), with its run, box shape, size, canonical key, tier, variant, a
  Jigsaw's regions and a Killer's cages (JSON text, as ``[{"sum": 23, "cells": [0, 1]}, ...]``);
- ``reservations``: ids a running book has chosen but not printed yet, with its run;
- ``imports``: the old Parquet catalogs already imported, by their manifest's sha256.

``PRAGMA user_version`` is the schema version; a database of version 1 (before variants) gains
the ``variant`` and ``regions`` columns the first time it is used, its puzzles classic, and one of
version 2 (before Killer) the ``cages`` column, null. Every
change is one ``BEGIN IMMEDIATE`` transaction: two books made at once can never both hold a
puzzle (an id is UNIQUE in each table, and a reservation is refused while another run prints or
reserves any of its ids), and a run killed in the middle of a change leaves nothing
half-written.

A reservation belongs to a live run. A row cannot tell whether its process still lives: a pid can
be reused by another process, and a heartbeat needs a timeout too long for a killed run or too
short for a slow one. So each reserving run holds an OS lock (:class:`pipeline.locks.FileLock`)
on ``<output>/catalog.runs/<run-id>.lock`` for as long as it lives, which the kernel drops when
the process dies, however it dies. Every change first tries the lock of each reserving run, and
deletes in the same transaction the reservations of a run whose lock it could take.

An old catalog (the Parquet dataset ``<output>/catalog/size=*/*.parquet`` with
``<output>/.catalog/manifest.json``) is imported once, in one transaction, the first time the
database is used; its files are left in place.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.formats import FormatError
from pipeline.formats.writers import atomic_path
from pipeline.locks import FileLock, Locked, file_lock
from pipeline.store import (
    CAGES_TYPE,
    CATALOG,
    CATALOG_SCHEMA,
    MANIFEST_FILE,
    PUZZLES_FILE,
    StoreError,
    make_folder,
    read_rows,
)
from pipeline.variants import row_variant

DATABASE = "catalog.sqlite"
RUN_LOCKS = "catalog.runs"  # beside the database: one lock file per reserving run
LOCK = ".lock"
SCHEMA_VERSION = 3  # PRAGMA user_version of a database this module writes
#: How a database of an earlier version becomes one of the next, by the version it has; they
#: run in turn up to this version.
MIGRATIONS = {
    1: (  # before variants: every puzzle classic
        "ALTER TABLE puzzles ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'",
        "ALTER TABLE puzzles ADD COLUMN regions TEXT",
    ),
    2: ("ALTER TABLE puzzles ADD COLUMN cages TEXT",),  # before Killer: no cages
}
BUSY_TIMEOUT = 60.0  # seconds a change waits for another process's change to finish
OLD_BOOKKEEPING = ".catalog"  # an old catalog's manifest folder, beside its dataset
HASH_BLOCK = 1 << 20  # bytes read at a time for a file's sha256
EXPORT_BATCH = 100_000  # rows read from the database per Parquet row group
DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")  # error names that mean the file is damaged

TABLES = {
    "books": """CREATE TABLE books (
        run_id  TEXT PRIMARY KEY,
        book    TEXT NOT NULL,
        printed TEXT NOT NULL)""",
    "puzzles": """CREATE TABLE puzzles (
        id        TEXT PRIMARY KEY,
        run_id    TEXT NOT NULL REFERENCES books (run_id) ON DELETE CASCADE,
        box_rows  INTEGER NOT NULL CHECK (box_rows > 0),
        box_cols  INTEGER NOT NULL CHECK (box_cols > 0),
        size      INTEGER NOT NULL CHECK (size = box_rows * box_cols),
        canonical TEXT NOT NULL,
        tier      TEXT NOT NULL,
        variant   TEXT NOT NULL DEFAULT 'classic',
        regions   TEXT,
        cages     TEXT) WITHOUT ROWID""",
    "reservations": """CREATE TABLE reservations (
        id       TEXT PRIMARY KEY,
        run_id   TEXT NOT NULL,
        reserved TEXT NOT NULL) WITHOUT ROWID""",
    "imports": """CREATE TABLE imports (
        manifest_sha256 TEXT PRIMARY KEY,
        source          TEXT NOT NULL,
        imported        TEXT NOT NULL,
        books           INTEGER NOT NULL,
        puzzles         INTEGER NOT NULL)""",
}
INDEXES = (
    "CREATE INDEX puzzles_by_run ON puzzles (run_id)",
    "CREATE INDEX reservations_by_run ON reservations (run_id)",
)

#: ``pipeline catalog export``: the catalog's columns, the grid size and when the book was printed.
EXPORT_SCHEMA = CATALOG_SCHEMA.append(pa.field("size", pa.int32())).append(
    pa.field("printed", pa.timestamp("us", tz="UTC"))
)
EXPORT_QUERY = """
    SELECT puzzles.id, box_rows, box_cols, variant, regions, cages, canonical, tier, book, run_id,
        size, printed
    FROM puzzles JOIN books USING (run_id)
    ORDER BY puzzles.id"""


class CatalogError(StoreError):
    """The catalog cannot be used or changed; the message names the file or the run at fault."""


class CatalogDamaged(CatalogError):
    """The catalog is damaged or misses a printed book: using it could print a puzzle twice."""

    def __init__(self, output: Path, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(
            f"the catalog is damaged: {problems[0]}{more}; `pipeline catalog check -o {output}` "
            f"lists the problems, `pipeline catalog rebuild -o {output}` rebuilds it from the "
            "printed books"
        )


@dataclass(frozen=True)
class Imported:
    """What ``import_old`` added: books and puzzles new to the database (0 when done before)."""

    source: Path
    books: int
    puzzles: int
    already: bool  # imported before: nothing was read
    dropped: list[str]  # old files that could not be read, each with its reason (rebuild only)


@dataclass(frozen=True)
class Rebuilt:
    """What ``rebuild`` made the catalog from."""

    books: int  # printed books whose run folder was read
    kept: int  # puzzles of other runs the database still held
    imported: Imported | None  # an old catalog not imported before
    unaccounted: list[str]  # printed books whose puzzles could not all be recorded, and why
    ids: int  # puzzles in the rebuilt catalog


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        while block := data.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def now() -> str:
    """The time of a change, as the tables keep it (ISO 8601, UTC)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def finished_books(output: Path) -> list[tuple[Path, str]]:
    """Run folders under ``output`` whose book was printed (manifest, puzzles and PDF are there),
    with their run ids."""
    found = []
    for manifest in sorted(Path(output).glob(f"*/*/{MANIFEST_FILE}")):
        folder = manifest.parent
        try:
            record = json.loads(manifest.read_text(encoding="utf-8"))
            pdf = folder / record["pdf"]["file"]
            rid = str(record["run_id"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a finished run's manifest
        if pdf.is_file() and (folder / PUZZLES_FILE).is_file():
            found.append((folder, rid))
    return found


def lock_name(rid: str) -> str:
    """The file name of ``rid``'s reservation lock; a run id that cannot be one is refused."""
    if not rid or rid in (".", "..") or "/" in rid or "\0" in rid:
        raise CatalogError(f"run id {rid!r} cannot name a lock file in {RUN_LOCKS}/")
    return f"{rid}{LOCK}"


def puzzle_entry(rid: str, row: Mapping[str, Any]) -> tuple[Any, ...]:
    """A ``puzzles`` row from a puzzle dict (the size is computed, never trusted; a row written
    before variants is classic; a Killer's cages as JSON text)."""
    box_rows, box_cols = int(row["box_rows"]), int(row["box_cols"])
    size = box_rows * box_cols
    entry = (row["id"], rid, box_rows, box_cols, size, row["canonical"], row["tier"])
    cages = row.get("cages")
    cages_text = None if cages is None else json.dumps(cages)
    return (*entry, row_variant(row), row.get("regions"), cages_text)


@contextmanager
def transaction(db: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[None]:
    """``BEGIN <mode>`` ... ``COMMIT``; anything raised in the block rolls it all back."""
    db.execute(f"BEGIN {mode}")
    try:
        yield
    except BaseException:
        if db.in_transaction:  # SQLite itself rolls back after some errors (a full disk)
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class Catalog:
    """The catalog of ``output`` (see the module's docstring)."""

    def __init__(self, output: Path) -> None:
        self.output = Path(output)
        self.database = self.output / DATABASE
        self.run_locks = self.output / RUN_LOCKS
        self._held: dict[str, FileLock] = {}  # run id -> the held lock of its reservation
        self._prepared = False  # schema checked and old catalog imported, by this object

    # -- connections and transactions ---------------------------------------------------------

    def _refuse_links(self) -> None:
        """Nothing is ever written through a link planted at the database's paths."""
        for path in (self.database, *self._journals(), self.run_locks):
            if path.is_symlink():
                raise CatalogError(
                    f"{path}: is a symbolic link; the catalog is never written through one: "
                    "remove it and try again"
                )

    def _journals(self) -> list[Path]:
        return [self.database.with_name(f"{DATABASE}{suffix}") for suffix in ("-wal", "-shm")]

    def _error(self, exc: sqlite3.Error) -> CatalogError:
        if getattr(exc, "sqlite_errorname", "").startswith(DAMAGE):
            return CatalogDamaged(self.output, [f"{self.database}: {exc}"])
        return CatalogError(f"{self.database}: {exc}")

    @contextmanager
    def _connection(self, import_old: bool = True) -> Iterator[sqlite3.Connection]:
        """A connection to the database, its schema made or checked (and, unless
        ``import_old`` is false, an old catalog imported) once per :class:`Catalog`."""
        self._refuse_links()
        make_folder(self.run_locks)
        try:
            db = sqlite3.connect(self.database, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA journal_mode = WAL")
            if not self._prepared:
                with transaction(db):
                    self._prepare(db)
                    done = self._import_old(db, self.output, strict=True) if import_old else None
                if done and not done.already:
                    print(self._imported_line(done), file=sys.stderr)
                self._prepared = True
            yield db
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        finally:
            db.close()

    def _imported_line(self, done: Imported) -> str:
        return (
            f"{self.database}: imported the old catalog {done.source / CATALOG} "
            f"({done.puzzles} puzzles of {done.books} books); its files are left in place"
        )

    def _prepare(self, db: sqlite3.Connection) -> None:
        """Make the tables in a new database, bring one of an earlier version up to this one
        (:data:`MIGRATIONS`); refuse one of another schema version."""
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == 0 and db.execute("SELECT 1 FROM sqlite_master").fetchone() is None:
            for statement in (*TABLES.values(), *INDEXES):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif version in MIGRATIONS:
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step]:
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif version != SCHEMA_VERSION:
            found = f"schema version {version}, this pipeline reads {SCHEMA_VERSION}"
            raise CatalogDamaged(self.output, [f"{self.database}: {found}"])

    @contextmanager
    def _change(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, which first drops the reservations of dead runs."""
        with self._connection() as db, transaction(db):
            self._drop_dead_reservations(db)
            yield db

    # -- reservations -------------------------------------------------------------------------

    def _drop_dead_reservations(self, db: sqlite3.Connection) -> None:
        """Delete the reservations of every run that no longer holds its lock (killed, or
        crashed before releasing), and the lock files such runs left."""
        rids = {rid for (rid,) in db.execute("SELECT DISTINCT run_id FROM reservations")}
        rids |= {path.name[: -len(LOCK)] for path in self.run_locks.glob(f"*{LOCK}")}
        for rid in sorted(rids - self._held.keys()):
            path = self.run_locks / lock_name(rid)
            try:
                with file_lock(path, wait=False):
                    db.execute("DELETE FROM reservations WHERE run_id = ?", (rid,))
                    path.unlink()
            except Locked:
                continue  # a live run holds it

    def _taken(self, db: sqlite3.Connection, rid: str, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` another run has printed or reserved."""
        db.execute("CREATE TEMP TABLE wanted (id TEXT PRIMARY KEY) WITHOUT ROWID")
        db.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", ((value,) for value in ids))
        query = """
            SELECT id FROM puzzles JOIN wanted USING (id) WHERE run_id != ?1
            UNION SELECT id FROM reservations JOIN wanted USING (id) WHERE run_id != ?1"""
        return {value for (value,) in db.execute(query, (rid,))}

    def known_ids(self, exclude_run: str | None = None) -> set[str]:
        """Ids in a book or reserved by a live run, leaving out ``exclude_run``'s own (a re-run
        of the same run); :class:`CatalogDamaged` if a printed book is missing from it."""
        with self._connection() as db:
            with transaction(db):
                self._drop_dead_reservations(db)
                missing = self._unrecorded_runs(db)
            if missing:
                raise CatalogDamaged(self.output, missing)
            with transaction(db, "DEFERRED"):  # one snapshot of both tables
                query = """
                    SELECT id FROM puzzles WHERE run_id IS NOT ?1
                    UNION ALL SELECT id FROM reservations WHERE run_id IS NOT ?1"""
                return {value for (value,) in db.execute(query, (exclude_run,))}

    def reserve(self, rid: str, ids: Sequence[str]) -> set[str]:
        """Reserve ``ids`` for run ``rid`` (which must hold its run lock), replacing its earlier
        reservation: all of them, or none when another run has printed or reserved some of
        them, whose ids are returned."""
        lock_name(rid)
        with self._change() as db:
            taken = self._taken(db, rid, ids)
            if taken:
                return taken
            self._hold(rid)
            db.execute("DELETE FROM reservations WHERE run_id = ?", (rid,))
            db.execute("INSERT INTO reservations SELECT id, ?, ? FROM wanted", (rid, now()))
        return set()

    def _hold(self, rid: str) -> None:
        if rid in self._held:
            return
        lock = FileLock(self.run_locks / lock_name(rid))
        try:
            lock.acquire(wait=False)
        except Locked:
            raise CatalogError(
                f"{lock.path}: another live process reserves for run {rid}"
            ) from None
        self._held[rid] = lock

    def _let_go(self, rid: str) -> None:
        """Drop ``rid``'s lock once its reservation is gone from the database."""
        lock = self._held.pop(rid, None)
        if lock is not None:
            lock.path.unlink(missing_ok=True)
            lock.release()

    def release(self, rid: str) -> None:
        """Give back ``rid``'s reserved ids (a run that failed before its book was printed)."""
        if rid in self._held:
            with self._change() as db:
                db.execute("DELETE FROM reservations WHERE run_id = ?", (rid,))
            self._let_go(rid)

    def commit(self, rid: str, book: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Record a printed book's puzzles (replacing an earlier run of ``rid``) and end its
        reservation; refused, naming the ids, if another run printed or reserved any of them."""
        with self._change() as db:
            taken = self._taken(db, rid, [row["id"] for row in rows])
            if taken:
                raise CatalogError(
                    f"{self.database}: book {book!r} (run {rid}) holds {len(taken)} puzzles "
                    f"another run printed or reserved: {', '.join(sorted(taken)[:5])}"
                )
            self._record(db, rid, book, now(), rows)
            db.execute("DELETE FROM reservations WHERE run_id = ?", (rid,))
        self._let_go(rid)

    def _record(
        self,
        db: sqlite3.Connection,
        rid: str,
        book: str,
        printed: str,
        rows: Sequence[Mapping[str, Any]],
    ) -> int:
        """Make ``rows`` run ``rid``'s only puzzles; return how many are recorded (an id another
        run holds already is left to it)."""
        db.execute("DELETE FROM books WHERE run_id = ?", (rid,))  # and its puzzles (cascade)
        db.execute("INSERT INTO books VALUES (?, ?, ?)", (rid, book, printed))
        before = db.total_changes
        db.executemany(
            "INSERT OR IGNORE INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (puzzle_entry(rid, row) for row in rows),
        )
        return db.total_changes - before

    # -- old Parquet catalogs -----------------------------------------------------------------

    def import_old(self, source: Path | None = None) -> Imported:
        """Import the old Parquet catalog kept in ``source`` (an output folder holding
        ``catalog/`` and ``.catalog/manifest.json``; default this catalog's own), once."""
        folder = Path(source) if source is not None else self.output
        with self._connection(import_old=False) as db, transaction(db):
            done = self._import_old(db, folder, strict=True)
        if done is None:
            raise CatalogError(
                f"{folder / OLD_BOOKKEEPING / MANIFEST_FILE}: missing; {folder} holds no old "
                f"catalog (its {CATALOG}/ and {OLD_BOOKKEEPING}/{MANIFEST_FILE})"
            )
        return done

    def _import_old(self, db: sqlite3.Connection, folder: Path, strict: bool) -> Imported | None:
        """Import ``folder``'s old catalog, unless there is none or it was imported before.

        ``strict``: every file its manifest lists must be there, unchanged, and no other
        (:class:`CatalogDamaged` names the file); otherwise every file that reads is imported
        and the others are named in ``dropped`` (what ``rebuild`` salvages).
        """
        manifest = folder / OLD_BOOKKEEPING / MANIFEST_FILE
        if not manifest.is_file():
            return None
        digest = sha256(manifest)
        found = db.execute("SELECT 1 FROM imports WHERE manifest_sha256 = ?", (digest,))
        if found.fetchone():
            return Imported(folder, 0, 0, already=True, dropped=[])
        root = folder / CATALOG
        on_disk = sorted(root.glob("size=*/*.parquet"))
        if strict:
            problems = self._old_problems(manifest, root, on_disk)
            if problems:
                raise CatalogDamaged(self.output, problems)
        runs: dict[str, tuple[str, str, list[dict[str, Any]]]] = {}
        dropped = []
        for path in on_disk:
            try:  # files of old catalogs have no variant columns: their puzzles are classic
                names = [
                    name for name in CATALOG_SCHEMA.names if name in pq.read_schema(path).names
                ]
                rows = pq.read_table(path, columns=names).to_pylist()
                printed = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            except (OSError, pa.ArrowException) as exc:
                dropped.append(f"{path}: {exc}")
                continue
            for row in rows:
                when = printed.isoformat(timespec="seconds")
                runs.setdefault(row["run_id"], (row["book"], when, []))[2].append(row)
        puzzles = 0
        for rid, (book, printed, rows) in sorted(runs.items()):
            known = db.execute("SELECT 1 FROM books WHERE run_id = ?", (rid,)).fetchone()
            if known is None:  # a run the database records already keeps its own entries
                puzzles += self._record(db, rid, book, printed, rows)
        books = sum(1 for _ in runs)
        db.execute(
            "INSERT INTO imports VALUES (?, ?, ?, ?, ?)",
            (digest, str(folder.resolve()), now(), books, puzzles),
        )
        return Imported(folder, books, puzzles, already=False, dropped=dropped)

    @staticmethod
    def _old_problems(manifest: Path, root: Path, on_disk: list[Path]) -> list[str]:
        """How an old catalog differs from its manifest, one line per file."""
        try:
            listed: dict[str, Any] = json.loads(manifest.read_text(encoding="utf-8"))["files"]
            if not isinstance(listed, dict):
                raise TypeError("'files' is not a table")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            return [f"{manifest}: not an old catalog manifest: {exc}"]
        problems = []
        for name, record in sorted(listed.items()):
            path = root / name
            if not path.is_file():
                problems.append(f"{path}: missing (the old manifest lists it)")
            elif sha256(path) != record.get("sha256"):
                problems.append(f"{path}: contents differ from what was written (sha256)")
        problems += [
            f"{path}: not in the old manifest (copied, renamed or edited by hand)"
            for path in on_disk
            if path.relative_to(root).as_posix() not in listed
        ]
        return problems

    # -- damage, repair and export ------------------------------------------------------------

    def _unrecorded_runs(self, db: sqlite3.Connection) -> list[str]:
        """Printed books whose run the database does not record (one line each)."""
        return [
            f"{folder}: a printed book (run {rid}) whose ids are not in the catalog"
            for folder, rid in finished_books(self.output)
            if db.execute("SELECT 1 FROM books WHERE run_id = ?", (rid,)).fetchone() is None
        ]

    def check(self) -> list[str]:
        """Every problem of the database (``PRAGMA integrity_check``, foreign keys, schema) and
        every printed book whose puzzles it lacks: one line per problem, naming the file."""
        try:
            with self._connection() as db, transaction(db, "DEFERRED"):
                problems = [
                    f"{self.database}: {line}"
                    for (line,) in db.execute("PRAGMA integrity_check")
                    if line != "ok"
                ]
                problems += [
                    f"{self.database}: row {rowid} of {table} names a {parent} row that is gone"
                    for table, rowid, parent, _ in db.execute("PRAGMA foreign_key_check")
                ]
                return problems + self._missing_puzzles(db)
        except CatalogDamaged as exc:
            return exc.problems

    def _missing_puzzles(self, db: sqlite3.Connection) -> list[str]:
        problems = []
        for folder, rid in finished_books(self.output):
            try:
                ids = [row["id"] for row in read_rows(folder / PUZZLES_FILE)]
            except StoreError as exc:
                problems.append(f"{folder}: a printed book (run {rid}) unread: {exc}")
                continue
            found = sum(
                db.execute("SELECT 1 FROM puzzles WHERE id = ?", (value,)).fetchone() is not None
                for value in ids
            )
            if found < len(ids):
                problems.append(
                    f"{folder}: a printed book (run {rid}) whose ids are not in the catalog "
                    f"({len(ids) - found} of {len(ids)} missing)"
                )
        return problems

    def rebuild(self) -> Rebuilt:
        """Record again, in one transaction, every printed book's ``puzzles.parquet`` (replacing
        its run's entries), keep every other run's puzzles the database still holds (books whose
        run folder is gone), and import an old catalog not imported yet, salvaging what reads."""
        try:
            with self._connection(import_old=False) as db, transaction(db):
                self._drop_dead_reservations(db)
                imported = self._import_old(db, self.output, strict=False)
                books = finished_books(self.output)
                rebuilt_runs = {rid for _, rid in books}
                kept = sum(
                    count
                    for rid, count in db.execute("SELECT run_id, count(*) FROM puzzles GROUP BY 1")
                    if rid not in rebuilt_runs
                )
                unaccounted = [line for book in books for line in self._rerecord(db, *book)]
                ids = db.execute("SELECT count(*) FROM puzzles").fetchone()[0]
        except CatalogDamaged as exc:
            raise CatalogError(
                f"{exc.problems[0]}; rebuild repairs the database in place and cannot use this "
                f"one: move {self.database} aside and run it again, to start from the printed "
                "books"
            ) from None
        return Rebuilt(len(books), kept, imported, unaccounted, ids)

    def _rerecord(self, db: sqlite3.Connection, folder: Path, rid: str) -> list[str]:
        """Record a printed book from its run folder; what could not be recorded, if any."""
        try:
            rows = read_rows(folder / PUZZLES_FILE)
        except StoreError as exc:
            return [f"{folder}: a printed book (run {rid}) left as it was: {exc}"]
        known = db.execute("SELECT printed FROM books WHERE run_id = ?", (rid,)).fetchone()
        printed = known[0] if known else now()
        recorded = self._record(db, rid, folder.parent.name, printed, rows)
        unique = len({row["id"] for row in rows})
        if recorded < unique:
            return [
                f"{folder}: a printed book (run {rid}) with {unique - recorded} puzzles "
                "another book printed too (they stay recorded under that book)"
            ]
        return []

    def export(self, path: Path) -> int:
        """Write the printed puzzles to Parquet (:data:`EXPORT_SCHEMA`) atomically; the count."""
        count = 0
        try:
            with (
                self._connection() as db,
                transaction(db, "DEFERRED"),
                atomic_path(Path(path)) as temporary,
                pq.ParquetWriter(temporary, EXPORT_SCHEMA) as writer,
            ):
                cursor = db.execute(EXPORT_QUERY)
                while batch := cursor.fetchmany(EXPORT_BATCH):
                    columns = zip(*batch, strict=True)  # 'printed' is ISO text: Arrow casts it
                    arrays = [
                        _export_array(column, field.type)
                        for column, field in zip(columns, EXPORT_SCHEMA, strict=True)
                    ]
                    writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=EXPORT_SCHEMA))
                    count += len(batch)
        except FormatError as exc:
            raise StoreError(str(exc)) from None
        return count


def _export_array(column: Sequence[Any], kind: pa.DataType) -> pa.Array:
    """A column of the database as the export's type (the cages' JSON text back as a list)."""
    if kind == CAGES_TYPE:
        return pa.array([None if text is None else json.loads(text) for text in column], kind)
    return pa.array(column).cast(kind)
