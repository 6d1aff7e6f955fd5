"""Building blocks of the content schemas: the strict base model and shared field types.

Every model is pydantic v2 *strict* (no coercion: ``"7"`` is not an int) with ``extra="forbid"``
(an unknown key is an error) and frozen. Every mapping may carry ``provenance:`` (see
docs/content-format.md, "Provenance").
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict

__all__ = [
    "Model",
    "CASE_ID",
    "Provenance",
    "CaseId",
    "HexLabel",
    "Slug",
    "Side",
    "UnitClass",
    "UnitSize",
    "Scalar",
    "Colour",
    "CSS_COLOURS",
    "parse_provenance",
    "cited_cases",
    "FORMAT",
]

FORMAT = 1

#: A rulebook case id: "9.6C", "0.2.3.3A", "10.4.5C", "P1A".
CASE_ID = r"[A-Z]{0,2}\d+(?:\.\d+)*(?:[A-Z]\d*)?"
_CASE_RE = re.compile(rf"^{CASE_ID}$")
_PROV_RE = re.compile(r"^(rulebook|errata|reconstructed):\s*(\S.*)$", re.S)
_CASE_LIST_RE = re.compile(rf"^({CASE_ID})(?:\s*,\s*({CASE_ID}))*\b")


def parse_provenance(text: str) -> tuple[str, str]:
    """Split a provenance string into ``(source, rest)``; source is rulebook | errata | reconstructed.

    Raises ValueError with a readable message for anything else, or for a ``rulebook:`` /
    ``errata:`` provenance that does not start with a case id (content-format.md, Provenance).
    """
    m = _PROV_RE.match(text)
    if not m:
        raise ValueError(
            f"provenance must be 'rulebook: <case>', 'errata: <case>' or 'reconstructed: <how>', got {text!r}"
        )
    source, rest = m.group(1), m.group(2).strip()
    if source != "reconstructed" and not _CASE_LIST_RE.match(rest):
        raise ValueError(f"'{source}:' must cite a case id such as 9.6C, got {rest!r}")
    return source, rest


def cited_cases(text: str) -> list[str]:
    """The case ids a provenance string cites (``[]`` for reconstructed or free text)."""
    try:
        source, rest = parse_provenance(text)
    except ValueError:
        return []
    if source == "reconstructed":
        return []
    m = _CASE_LIST_RE.match(rest)
    if not m:
        return []
    head = m.group(0)
    return [c.strip() for c in head.split(",") if c.strip()]


def _check_provenance(text: str) -> str:
    parse_provenance(text)
    return text


def _check_case(text: str) -> str:
    if not _CASE_RE.match(text):
        raise ValueError(f"expected a case id such as '9.6C', got {text!r}")
    return text


def _hex_before(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(f"a hex label is a quoted string like \"0303\", got the number {value}")
    return value


def _check_hex(text: str) -> str:
    if not re.fullmatch(r"[0-9]{4}", text):  # ASCII, as parse_hex: not "１２３４"
        raise ValueError(f"expected a hex label of four digits like '0303', got {text!r}")
    return text


def _check_slug(text: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", text):
        raise ValueError(f"expected an id of lower-case letters, digits, '-' or '_', got {text!r}")
    return text


Provenance = Annotated[str, AfterValidator(_check_provenance)]
CaseId = Annotated[str, AfterValidator(_check_case)]
HexLabel = Annotated[str, BeforeValidator(_hex_before), AfterValidator(_check_hex)]
Slug = Annotated[str, AfterValidator(_check_slug)]
#: Names a game declares in its manifest's ``vocabulary:`` (checked there, casebook.content.vocabulary):
#: here only their form, an id.
Side = Slug
UnitClass = Slug
UnitSize = Slug
Scalar = bool | int | float | str


class Model(BaseModel):
    """Strict, frozen, no unknown keys; any mapping may carry its own ``provenance``."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, populate_by_name=False, defer_build=True)

    provenance: Provenance | None = None


#: The CSS named colours (CSS Color Module Level 4), the words a side's ``colour``/``ink`` may be.
CSS_COLOURS = frozenset("""
aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid
darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet
deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro
ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow
lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine
mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen
mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace
olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred
papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue
saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey
snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
yellowgreen""".split())
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def _colour(value: str) -> str:
    if _HEX_COLOUR.fullmatch(value) or value.lower() in CSS_COLOURS:
        return value
    import difflib

    close = difflib.get_close_matches(value.lower(), sorted(CSS_COLOURS), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"not a colour: {value[:40]!r}; use #rgb, #rrggbb or a CSS colour name{hint}")


#: A side's counter colour: ``#rgb``, ``#rrggbb`` or a CSS named colour (nothing else reaches the SVG).
Colour = Annotated[str, AfterValidator(_colour)]
