"""A loaded content pack as plain data: :class:`Pack` (what :func:`casebook.content.loader.load_pack`
returns), its charts (:class:`Table`) and its files (:class:`FileInfo`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from casebook.content.schema_tables import cell_value
from casebook.content.vocabulary import Vocabulary, vocabulary_of

__all__ = ["Pack", "Table", "FileInfo"]


@dataclass(frozen=True)
class FileInfo:
    """One file of a pack: path, kind, and its scalar values counted by provenance source."""

    path: Path
    kind: str
    counts: Mapping[str, int]


@dataclass(frozen=True)
class Table:
    """A chart indexed by named dimensions (``kind: table``).

    ``dims`` is a tuple of ``(name, values)``; :meth:`lookup` takes one keyword per dim.
    """

    id: str
    title: str
    dims: tuple[tuple[str, tuple[Any, ...]], ...]
    value_type: str
    cells: Mapping[Any, Any] = field(repr=False)
    provenance: str | None = None
    #: The cells read meanwhile, ``(table id, coordinates)``, while a ``reading_tables()`` block runs.
    reads: ClassVar[list[tuple[str, tuple[tuple[str, Any], ...]]] | None] = None

    def _cell(self, coords: dict[str, Any]) -> Any:
        names = [n for n, _ in self.dims]
        if set(coords) != set(names):
            raise KeyError(f"table {self.id} takes coordinates {names}, got {sorted(coords)}")
        node: Any = self.cells
        for name, values in self.dims:
            v = coords[name]
            if v not in values:
                raise KeyError(f"table {self.id}: {name}={v!r} is not one of {list(values)}")
            node = node[v]
        return node

    def lookup(self, **coords: Any) -> Any:
        """The cell at ``coords`` (one keyword per dim, e.g. ``lookup(odds="3:1", roll=4)``).

        Raises KeyError naming the table and the bad coordinate. While
        :func:`casebook.content.tablelines.reading_tables` runs, the cell read is noted.
        """
        if Table.reads is not None:
            Table.reads.append((self.id, tuple(coords.items())))
        return cell_value(self._cell(coords))

    def provenance_of(self, **coords: Any) -> str | None:
        """The provenance of one cell (its own, else the table's)."""
        cell = self._cell(coords)
        if isinstance(cell, dict) and isinstance(cell.get("provenance"), str):
            return cell["provenance"]
        return self.provenance


@dataclass(frozen=True)
class Pack:
    """A loaded, validated content pack. Plain data throughout (dicts / lists as in the YAML,
    errata applied); ``scenarios`` are paths, loaded with :func:`casebook.content.position.load_position`
    (or :meth:`scenario`)."""

    dir: Path
    manifest: Mapping[str, Any]
    cases: Mapping[str, Mapping[str, Any]]
    sequence: Mapping[str, Any]
    map: Mapping[str, Any]
    counters: Mapping[str, Mapping[str, Any]]
    tables: Mapping[str, Table]
    records: Mapping[str, list[dict[str, Any]]]
    scenarios: Mapping[str, Path]
    interpretations: Mapping[str, Mapping[str, Any]]
    rules_dir: Path
    rule_files: tuple[Path, ...]
    files: tuple[FileInfo, ...]
    gazetteer: Mapping[str, Any] | None = None
    errata: tuple[tuple[Path, int, Mapping[str, Any]], ...] = field(default=(), repr=False)

    @property
    def id(self) -> str:
        """The game id of the manifest."""
        return self.manifest["id"]

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The game's :class:`~casebook.content.vocabulary.Vocabulary` (sides, unit classes, …),
        built once per loaded pack (rules read it at every evaluation)."""
        return vocabulary_of(self.manifest)

    @cached_property
    def table_lines(self) -> Any:
        """The cited ``file:line`` of its table cells and records rows
        (:class:`casebook.content.tablelines.TableLines`), read once per loaded pack."""
        from casebook.content.tablelines import TableLines

        return TableLines(self)

    def scenario(self, scenario_id: str) -> Any:
        """Load scenario ``scenario_id`` as a Position (raises KeyError if unknown)."""
        from casebook.content.position import load_position

        return load_position(self.scenarios[scenario_id], pack=self)

    def patches_for(self, path: Path) -> list[tuple[Path, int, Mapping[str, Any]]]:
        """The errata patches (errata file, index, patch) that target ``path``, in order."""
        target = Path(path).resolve()
        return [e for e in self.errata if (self.dir / e[2]["file"]).resolve() == target]
