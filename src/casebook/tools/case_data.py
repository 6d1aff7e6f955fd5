"""The cases a game's data cites, for ``casebook cases`` (:mod:`casebook.tools.cmd_cases`): the
tables a rule line or plugin reads (by their ``rulebook:`` / ``errata:`` provenance and a record's
``cases``), the errata overlay patches, the sequence of play, the manifest's ``area_procedures:``
and the scenarios. Each function maps case id -> its sources (``table:<id>``, ``errata:<file>``,
``sequence:<file>``, ``area:<area>.<function>``, ``scenario:<id>``); a file that cannot be read
is a warning appended to ``warnings``, never an error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from casebook.content.cases import CASE_ID
from casebook.core.errors import CasebookError

__all__ = ["table_cases", "printed_cases", "data_cases", "scenario_cases"]


def table_cases(pack_dir: Path, tables: list[Any], read: frozenset[str], warnings: list[str]) -> dict[str, list[str]]:
    """case -> ``table:<id>`` for every table some rule-script line looks up or a plugin declares
    it reads, by the cases its values cite as printed (``rulebook: <case>`` or ``errata: <case>``
    provenance; a ``reconstructed:`` value implements no case) and the case ids a record lists
    in its ``cases`` field (a row of ``crt_results`` names the cases the result applies)."""
    from casebook.content.yamlio import load_yaml

    out: dict[str, list[str]] = {}
    for rel in tables:
        try:
            data = load_yaml(pack_dir / str(rel)).data
        except Exception as exc:  # report, keep counting the rest
            warnings.append(f"table {rel} not counted: {exc}".splitlines()[0])
            continue
        if not isinstance(data, dict) or str(data.get("id")) not in read:
            continue
        found = printed_cases(data) + [str(c) for row in data.get("rows") or () if isinstance(row, dict)
                                        for c in (row.get("cases") or ()) if isinstance(row.get("cases"), list)]
        for case in dict.fromkeys(c for c in found if CASE_ID.match(c)):
            out.setdefault(case, []).append(f"table:{data['id']}")
    return out


def printed_cases(node: Any) -> list[str]:
    """The case ids of every ``rulebook:`` / ``errata:`` provenance string anywhere in ``node``."""
    if isinstance(node, list):
        return [c for v in node for c in printed_cases(v)]
    if not isinstance(node, dict):
        return []
    found: list[str] = []
    for k, v in node.items():
        if k == "provenance" and isinstance(v, str):
            kind, _, rest = v.partition(":")
            if kind.strip() in ("rulebook", "errata"):
                found.extend(t.strip(",;()") for t in rest.split())
        else:
            found.extend(printed_cases(v))
    return found


def data_cases(game: str, warnings: list[str]) -> dict[str, list[str]]:
    """case -> ``errata:<file>`` for every errata overlay patch of the pack citing that case
    (errata are implemented as data: patches applied on load); ``sequence:<file>`` for the
    sequence of play; ``area:<area>.<function>`` for the cases the manifest's
    ``area_procedures:`` says a shared area's Python implements (kind python)."""
    from casebook.content.loader import load_pack

    try:
        pack = load_pack(game)
    except CasebookError as exc:
        warnings.append(f"errata not counted: {exc}".splitlines()[0])
        return {}
    out: dict[str, list[str]] = {}
    seq_file = f"sequence:{pack.manifest.get('sequence', 'sequence.yaml')}"
    for phase in pack.sequence.get("phases") or []:   # the sequence of play is data (0.7)
        for item in [phase, *(phase.get("steps") or []), *(phase.get("loops") or [])]:
            case = str(item.get("case", ""))
            if case and seq_file not in out.get(case, []):
                out.setdefault(case, []).append(seq_file)
    for area, functions in (pack.manifest.get("area_procedures") or {}).items():
        for function, ids in functions.items():   # a shared area's Python, for this game's cases
            for case in ids:
                out.setdefault(str(case), []).append(f"area:{area}.{function}")
    for path, _, patch in pack.errata:
        source = f"errata:{Path(path).name}"
        case = str(patch.get("case", ""))
        if case and source not in out.get(case, []):
            out.setdefault(case, []).append(source)
    for sid, path in pack.scenarios.items():  # a set-up is data: the scenario's cited cases
        for case in scenario_cases(Path(path), warnings):
            source = f"scenario:{sid}"
            if source not in out.get(case, []):
                out.setdefault(case, []).append(source)
    return out


def scenario_cases(path: Path, warnings: list[str]) -> list[str]:
    """Case ids a scenario document cites: its ``provenance`` text (``rulebook BM3.4A, BM3.4B``)
    and the ``case`` fields anywhere in it (victory conditions and the like)."""
    from casebook.content.yamlio import load_yaml

    try:
        data = load_yaml(path).data
    except Exception as exc:  # report, keep counting the rest
        warnings.append(f"scenario {path.name} not counted: {exc}".splitlines()[0])
        return []
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "case" and isinstance(v, str):
                    found.append(v)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data)
    if isinstance(data, dict) and isinstance(data.get("provenance"), str):
        tokens = (t.strip(",;:()") for t in data["provenance"].split())
        found += [t for t in tokens if t and ("." in t or t[0].isalpha())]  # not years or counts
    return [c for c in dict.fromkeys(found) if CASE_ID.match(c)]
