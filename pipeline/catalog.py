"""The catalog: every puzzle id already in a book, shared by all runs into one output folder.

It is a transaction across processes. ``<output>/catalog/`` holds only the committed ids, as a
Hive-partitioned Parquet dataset any reader takes whole: ``size=<n>/<run-id>.parquet``, the ids of
one printed book. Its bookkeeping sits beside it in ``<output>/.catalog/``:

- ``manifest.json``: the schema, and the rows and sha256 of every committed file (what ``check``
  compares, so a deleted, renamed, retyped or edited file is found);
- ``reserved/<run-id>.parquet``: ids a running book has chosen but not printed yet, and
  ``reserved/<run-id>.lock``, which that run holds (``flock``) for as long as it lives;
- ``lock``: held for each short transaction (read, reserve, commit, release, check, rebuild).

A run reserves its ids once it has chosen them: the reservation fails, naming the ids taken, when
another book has committed or reserved any of them, and the run chooses again without those. Ids
are committed only once the book's PDF exists; a run that fails releases its reservation, and one
that was killed holds no lock any more, so the next transaction drops its reservation.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.locks import FileLock, Locked, file_lock
from pipeline.store import (
    CATALOG,
    CATALOG_SCHEMA,
    MANIFEST_FILE,
    PUZZLES_FILE,
    SCHEMA_VERSION,
    StoreError,
    make_folder,
    read_rows,
    write_json,
    write_table,
)

BOOKKEEPING = ".catalog"  # beside the dataset, so that readers of the dataset see only ids
RESERVED = "reserved"
LOCK = ".lock"  # suffix of a reservation's lock
TRANSACTION_LOCK = "lock"
HASH_BLOCK = 1 << 20  # bytes read at a time for a file's sha256


class CatalogDamaged(StoreError):
    """The catalog does not match its manifest: using it could print a puzzle twice."""

    def __init__(self, output: Path, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(
            f"the catalog is damaged: {problems[0]}{more}; `pipeline catalog check -o {output}` "
            f"lists the problems, `pipeline catalog rebuild -o {output}` rebuilds it from the "
            "printed books"
        )


@dataclass(frozen=True)
class Rebuilt:
    """What ``rebuild`` made the catalog from."""

    books: int  # finished run folders read
    salvaged: int  # catalog files kept because they still read with the right schema
    dropped: list[str]  # catalog files that could not be kept, each with its reason
    ids: int  # ids in the rebuilt catalog


def schema_fields(schema: pa.Schema) -> list[list[str]]:
    """A schema's columns and types, as the manifest records them."""
    return [[item.name, str(item.type)] for item in schema]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        while block := data.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


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


def _size(row: Mapping[str, Any]) -> int:
    return int(row["box_rows"]) * int(row["box_cols"])


class Catalog:
    """The catalog of ``output`` (see the module's docstring)."""

    def __init__(self, output: Path) -> None:
        self.output = Path(output)
        self.root = self.output / CATALOG
        self.bookkeeping = self.output / BOOKKEEPING
        self._held: dict[str, FileLock] = {}  # run id -> the held lock of its reservation

    # -- transactions -------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        make_folder(self.bookkeeping / RESERVED)
        with file_lock(self.bookkeeping / TRANSACTION_LOCK, wait=True):
            self._drop_dead_reservations()
            yield

    def _manifest(self) -> dict[str, Any]:
        path = self.bookkeeping / MANIFEST_FILE
        if not path.exists():
            return {"files": {}}
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(manifest.get("files"), dict):
                raise ValueError("no 'files' table")
        except (OSError, ValueError, AttributeError) as exc:
            raise CatalogDamaged(self.output, [f"{path}: not a catalog manifest: {exc}"]) from None
        return manifest

    def _write_manifest(self, files: Mapping[str, Any]) -> None:
        manifest = {
            "schema_version": SCHEMA_VERSION,
            "schema": schema_fields(CATALOG_SCHEMA),
            "files": dict(sorted(files.items())),
        }
        write_json(manifest, self.bookkeeping / MANIFEST_FILE)

    # -- reservations -------------------------------------------------------------------------

    def _reservation(self, rid: str, suffix: str) -> Path:
        return self.bookkeeping / RESERVED / f"{rid}{suffix}"

    def _drop_dead_reservations(self) -> None:
        """Remove reservations whose run no longer holds their lock (killed, or crashed before
        releasing), with any file such a run left half-committed."""
        try:
            listed: set[str] | None = set(self._manifest()["files"])
        except CatalogDamaged:
            listed = None  # which files are committed is unknown: delete none of them
        for lock in sorted((self.bookkeeping / RESERVED).glob(f"*{LOCK}")):
            rid = lock.name[: -len(LOCK)]
            if rid in self._held:
                continue
            try:
                with file_lock(lock, wait=False):
                    self._reservation(rid, ".parquet").unlink(missing_ok=True)
                    for part in self.root.glob(f"size=*/{rid}.parquet"):
                        name = part.relative_to(self.root).as_posix()
                        if listed is not None and name not in listed:
                            part.unlink()  # written by a commit that was killed half-way
                    lock.unlink()
            except Locked:
                continue  # a live run holds it
        for orphan in (self.bookkeeping / RESERVED).glob("*.parquet"):  # ids without a lock file
            if not self._reservation(orphan.stem, LOCK).exists():
                orphan.unlink()

    def _committed_files(self, exclude_run: str | None) -> list[Path]:
        return [
            self.root / name
            for name in self._manifest()["files"]
            if exclude_run is None or Path(name).stem != exclude_run
        ]

    def _reserved_files(self, exclude_run: str | None) -> list[Path]:
        return [
            path
            for path in sorted((self.bookkeeping / RESERVED).glob("*.parquet"))
            if path.stem != exclude_run
        ]

    def _ids_in(self, path: Path) -> pa.ChunkedArray:
        try:
            return pq.read_table(path, columns=["id"]).column("id")
        except (OSError, pa.ArrowException, KeyError) as exc:
            raise CatalogDamaged(self.output, [f"{path}: cannot read ids: {exc}"]) from None

    def _check_or_raise(self) -> None:
        problems = self._problems()
        if problems:
            raise CatalogDamaged(self.output, problems)

    def known_ids(self, exclude_run: str | None = None) -> set[str]:
        """Ids in a book or reserved by a live run, leaving out ``exclude_run``'s own (a re-run
        of the same run); :class:`CatalogDamaged` if the catalog does not match its manifest."""
        ids: set[str] = set()
        with self._transaction():
            self._check_or_raise()
            for path in self._committed_files(exclude_run) + self._reserved_files(exclude_run):
                ids.update(self._ids_in(path).to_pylist())
        return ids

    def reserve(self, rid: str, ids: Sequence[str]) -> set[str]:
        """Reserve ``ids`` for run ``rid`` (which must hold its run lock): all of them, or none
        when some are committed or reserved by another run, whose ids are returned."""
        wanted = pa.array(list(ids), pa.string())
        with self._transaction():
            taken: set[str] = set()
            for path in self._committed_files(rid) + self._reserved_files(rid):
                column = self._ids_in(path)
                taken.update(column.filter(pc.is_in(column, value_set=wanted)).to_pylist())
            if taken:
                return taken
            self._hold(rid)
            rows = [{"id": value} for value in ids]
            write_table(rows, self._reservation(rid, ".parquet"), pa.schema([("id", pa.string())]))
        return set()

    def _hold(self, rid: str) -> None:
        if rid in self._held:
            return
        lock = FileLock(self._reservation(rid, LOCK))
        try:
            lock.acquire(wait=False)
        except Locked:
            raise StoreError(f"{lock.path}: another live process reserves for run {rid}") from None
        self._held[rid] = lock

    def _let_go(self, rid: str) -> None:
        self._reservation(rid, ".parquet").unlink(missing_ok=True)
        lock = self._held.pop(rid, None)
        if lock is not None:
            self._reservation(rid, LOCK).unlink(missing_ok=True)
            lock.release()

    def release(self, rid: str) -> None:
        """Give back ``rid``'s reserved ids (a run that failed before its book was printed)."""
        if rid in self._held:
            with self._transaction():
                self._let_go(rid)

    def commit(self, rid: str, book: str, rows: Sequence[Mapping[str, Any]]) -> list[Path]:
        """Record a printed book's puzzles, one file per grid size, and end its reservation."""
        with self._transaction():
            files = dict(self._manifest()["files"])
            before = {name for name in files if Path(name).stem == rid}  # a re-run's earlier
            written = self._write_run(files, rid, book, rows)
            self._write_manifest(files)
            for name in before - set(files):  # sizes the book no longer has
                (self.root / name).unlink(missing_ok=True)
            self._let_go(rid)
        return written

    def _write_run(
        self, files: dict[str, Any], rid: str, book: str, rows: Sequence[Mapping[str, Any]]
    ) -> list[Path]:
        """Write ``rid``'s catalog files (each replacing the file of its name) and make them
        ``rid``'s only entries in ``files``."""
        for name in [name for name in files if Path(name).stem == rid]:
            del files[name]
        written = []
        for size in sorted({_size(row) for row in rows}):
            path = make_folder(self.root / f"size={size}") / f"{rid}.parquet"
            entries = [
                {key: row[key] for key in CATALOG_SCHEMA.names if key in row}
                | {"book": book, "run_id": rid}
                for row in rows
                if _size(row) == size
            ]
            count = write_table(entries, path, CATALOG_SCHEMA)
            files[path.relative_to(self.root).as_posix()] = {"rows": count, "sha256": sha256(path)}
            written.append(path)
        return written

    # -- damage -------------------------------------------------------------------------------

    def check(self) -> list[str]:
        """Every way the catalog differs from its manifest, and every finished book it lacks:
        one line per problem, naming the file."""
        with self._transaction():
            return self._problems()

    def _problems(self) -> list[str]:
        try:
            manifest = self._manifest()
        except CatalogDamaged as exc:
            return exc.problems
        listed: Mapping[str, Any] = manifest["files"]
        on_disk = {p.relative_to(self.root).as_posix() for p in self.root.glob("size=*/*.parquet")}
        problems = []
        path = self.bookkeeping / MANIFEST_FILE
        if on_disk and not path.exists():
            problems.append(f"{path}: missing, with {len(on_disk)} files beside it")
        elif listed and manifest.get("schema") != schema_fields(CATALOG_SCHEMA):
            problems.append(f"{path}: records another schema than this pipeline's")
        for name, record in listed.items():
            problems += self._file_problems(self.root / name, record)
        problems += [
            f"{self.root / name}: not in the manifest (copied, renamed or edited by hand)"
            for name in sorted(on_disk - set(listed))
        ]
        runs = {Path(name).stem for name in listed}
        problems += [
            f"{folder}: a printed book (run {rid}) whose ids are not in the catalog"
            for folder, rid in finished_books(self.output)
            if rid not in runs
        ]
        return problems

    def _file_problems(self, path: Path, record: Mapping[str, Any]) -> list[str]:
        if not path.is_file():
            return [f"{path}: missing (the manifest lists it with {record.get('rows')} ids)"]
        try:
            schema = pq.read_schema(path)
            rows = pq.read_metadata(path).num_rows
        except (OSError, pa.ArrowException) as exc:
            return [f"{path}: not readable as Parquet: {exc}"]
        for expected in CATALOG_SCHEMA:
            index = schema.get_field_index(expected.name)
            if index < 0:
                return [f"{path}: column {expected.name!r} is missing"]
            if schema.field(index).type != expected.type:
                found = schema.field(index).type
                return [f"{path}: column {expected.name!r} is {found}, not {expected.type}"]
        if rows != record.get("rows"):
            return [f"{path}: {rows} rows, the manifest says {record.get('rows')}"]
        if sha256(path) != record.get("sha256"):
            return [f"{path}: contents differ from what was written (sha256)"]
        partition = path.parent.name.removeprefix("size=")
        shapes = pq.read_table(path, columns=["box_rows", "box_cols"])
        sizes = set(pc.multiply(shapes["box_rows"], shapes["box_cols"]).unique().to_pylist())
        if sizes - {int(partition) if partition.isdigit() else -1}:
            return [f"{path}: holds grids of size {sorted(sizes)} in partition size={partition}"]
        return []

    def rebuild(self) -> Rebuilt:
        """Rebuild the catalog from the finished books' ``puzzles.parquet`` and from every catalog
        file that still reads with the right schema (e.g. books whose run folder is gone)."""
        with self._transaction():
            runs: dict[str, tuple[str, list[dict[str, Any]]]] = {}
            dropped = []
            old = sorted(self.root.glob("size=*/*.parquet"))
            for path in old:
                try:
                    table = pq.read_table(path)
                    if table.schema.remove_metadata() != CATALOG_SCHEMA.remove_metadata():
                        raise ValueError("columns or types are not the catalog's")
                except (OSError, pa.ArrowException, ValueError) as exc:
                    dropped.append(f"{path}: {exc}")
                    continue
                for row in table.to_pylist():
                    runs.setdefault(row["run_id"], (row["book"], []))[1].append(row)
            salvaged = len(old) - len(dropped)
            books = finished_books(self.output)
            for folder, rid in books:
                runs[rid] = (folder.parent.name, read_rows(folder / PUZZLES_FILE))
            for path in old:
                path.unlink()
            files: dict[str, Any] = {}
            for rid, (book, rows) in sorted(runs.items()):
                self._write_run(files, rid, book, rows)
            self._write_manifest(files)
        ids = sum(record["rows"] for record in files.values())
        return Rebuilt(len(books), salvaged, dropped, ids)
