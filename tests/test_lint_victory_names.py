"""A scenario's victory conditions are checked against the map by ``casebook lint`` and the pack's
load (a fresh user's check, session 19: a copied pack with a misspelt ``target``/``town`` and a hex
listed twice in 18.1.3A's ``hexes`` passed lint, and a malformed hex was reported twice). Each
problem at its file:line:column and key, with the map's names and a did-you-mean, all at once; every
message once. A hex label of non-ASCII digits ("１２３４": ``str.isdigit`` says yes) is a clean refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.loader import load_pack
from casebook.content.packcache import pack_board
from casebook.content.position import load_position
from casebook.content.position_checks import off_map, victory_board_problems
from casebook.core.errors import PositionError
from tests._pack_edits import GAMES, located_and_refused
from tests._pack_edits import copy_pack as _copy
from tests._pack_edits import edit as _edit
from tests._pack_edits import lint_errors as _lint

BLITZ = Path("scenarios") / "october-blitz.yaml"


def _at(path: Path, text: str) -> str:
    """``file:line:column`` of the first ``text`` in ``path``, as lint prints it."""
    n, line = next((n, t) for n, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in t)
    return f"{path}:{n}:{line.index(text) + 1}"


@pytest.mark.case("18.1.3B", "18.1.3D", "18.1.3A")
def test_18_1_3_a_misspelt_victory_target_town_or_town_name_fails_lint_and_the_load(tmp_path):
    """``target: moscw`` (18.1.3B), ``town: Smolenks`` (18.1.3D), ``Kalinn`` among 18.1.3A's names:
    nothing could enter them, the shortfall would name a town the map lacks. Each is refused at its
    place with the map's names and the closest one."""
    pack = _copy(tmp_path, "moscow41")
    scenario = pack / BLITZ
    _edit(scenario, 'target: "moscow"', 'target: "moscw"')
    _edit(scenario, 'town: "Smolensk"', 'town: "Smolenks"')
    _edit(scenario, 'names: ["Kalinin"', 'names: ["Kalinn"')
    towns = ("Aleksin, Bely, Dmitrov, Dorogobuzh, Gzhatsk, Istra, Kalinin, Kaluga, Kashira, Kirov, Klin, Kolomna, "
             "Kozelsk, Lyudinovo, Maloyaroslavets, Medyn, Moscow, Mozhaisk, Naro-Fominsk, Noginsk, Podolsk, Roslavl, "
             "Ruza, Rzhev, Serpukhov, Smolensk, Solnechnogorsk, Spas-Demensk, Stalinogorsk, Staritsa, Sukhinichi, "
             "Sychevka, Tula, Venev, Volokolamsk, Vyazma, Yakhroma, Yelnya, Yukhnov, Zagorsk, Zubtsov")
    name, target, town = (_at(scenario, t) for t in ('"Kalinn"', 'target: "moscw"', 'town: "Smolenks"'))
    located_and_refused(pack, [
        f"{name}: scenario.victory.german.0.names.0: unknown town 'Kalinn' "
        f"(did you mean 'Kalinin'?); the map's towns: {towns}",
        f"{target}: scenario.victory.german.1.target: unknown target 'moscw' (did you mean "
        "'moscow'?): expected 'town' (with town: a town's name) or a hex set of the map: 'moscow'",
        f"{town}: scenario.victory.soviet.1.town: unknown town 'Smolenks' (did you mean "
        f"'Smolensk'?); the map's towns: {towns}",
    ], "unknown target 'moscw'")


@pytest.mark.case("18.1.3A")
def test_18_1_3A_a_hex_listed_twice_in_hexes_fails_lint(tmp_path):
    """Kalinin's 3733 replaced by Volokolamsk's 2733: "3 of 5" could be met by two towns. The second
    listing is refused; the names no longer follow the hexes (Kalinin is not at 2733)."""
    pack = _copy(tmp_path, "moscow41")
    scenario = pack / BLITZ
    _edit(scenario, 'hexes: ["3733"', 'hexes: ["2733"')
    out = _lint(pack).splitlines()
    second, name = _at(scenario, '"2733", "2032"'), _at(scenario, '"Kalinin"')  # the second "2733" of the list
    assert (f"{second}: scenario.victory.german.0.hexes.1: hex 2733 is listed twice in "
            "hexes (also hexes.0): each hex counts once") in out
    assert (f"{name}: scenario.victory.german.0.names.0: 'Kalinin' is not the town at 2733 "
            "(hexes.0), 'Volokolamsk': names follow the order of hexes") in out
    assert out[-1].endswith(": 2 errors")


@pytest.mark.case("18.1.3A")
def test_18_1_3A_a_malformed_victory_hex_is_reported_once(tmp_path):
    """Kalinin's 3733 mistyped 37x3: the victory schema's message only (it was also said to be off the map)."""
    pack = _copy(tmp_path, "moscow41")
    scenario = pack / BLITZ
    _edit(scenario, 'hexes: ["3733"', 'hexes: ["37x3"')
    out, at = _lint(pack).splitlines(), _at(scenario, '"37x3"')
    assert out == [f"{at}: scenario.victory.german.0.hexes.0: expected a hex label of four "
                   "digits like '0303', got '37x3'", f"{pack}: 1 error"]


def test_the_shipped_scenarios_name_only_the_maps_hexes_sets_and_towns():
    for game in ("moscow41", "battle_for_moscow", "kestrel_pass"):
        pack = load_pack(GAMES / game)
        for path in pack.scenarios.values():
            scenario = load_position(path).scenario
            assert victory_board_problems(scenario.model_dump() if scenario else None, pack_board(pack),
                                          lambda kp: ("f", 1, 1)) == [], path


def test_a_hex_of_non_ascii_digits_is_refused_cleanly():
    """``"１２３４"`` passes ``str.isdigit``; ``parse_hex`` refuses it: the map check says why, the schema
    refuses it as a hex label, and a position naming it is refused whole (no bare ValueError)."""
    grid = pack_board(load_pack(GAMES / "moscow41")).grid
    assert off_map("１２３４", grid) == ("hex label must be four digits XXYY (column, then row), e.g. \"0304\"; "
                                        "got '１２３４'")
    assert off_map("9999", grid) == "hex 9999 is off the map (hexes 0108..4053)"
    assert off_map("4009", grid) is None
    text = ('kind: position\nformat: 1\ngame: moscow41\nturn: 1\nunits:\n  - {counter: "g-102id", hex: "１２３４"}\n'
            'control: {"２０３２": german}\n')
    with pytest.raises(PositionError) as err:
        load_position(text)
    assert [(p.key, p.message) for p in err.value.problems] == [
        ("units.0.hex", "expected a hex label of four digits like '0303', got '１２３４'"),
        ("control.２０３２", "key: expected a hex label of four digits like '0303', got '２０３２'")]


@pytest.mark.case("18.1.3A", "18.1.3D")
def test_18_1_3_victory_board_problems_each_at_its_key():
    """The checks on data (no file): a name beside a hex that is no town is the modder's word; two
    names swapped, ``target: town`` without ``town:``, a hex twice in a top-level ``hexes`` (Battle
    for Moscow's shape) and a hex off the map are each one problem at its key."""
    board = pack_board(load_pack(GAMES / "moscow41"))
    assert "4009" not in {f"{h.col:02d}{h.row:02d}" for h in board.towns()}
    scenario = {"victory": {
        "hexes": ["2242", "9999", "2242"],
        "german": [{"kind": "control_count", "hexes": ["2733", "3733", "4009"],
                    "names": ["Kalinin", "Volokolamsk", "the Lama line"], "at_least": 2}],
        "soviet": [{"kind": "enter", "target": "town"}]}}
    said = [(p.key, p.message) for p in victory_board_problems(scenario, board, lambda kp: ("f", 1, 1))]
    assert said == [
        ("scenario.victory.hexes.1", "hex 9999 is off the map (hexes 0108..4053)"),
        ("scenario.victory.hexes.2", "hex 2242 is listed twice in hexes (also hexes.0): each hex counts once"),
        ("scenario.victory.german.0.names.0", "'Kalinin' is not the town at 2733 (hexes.0), 'Volokolamsk': names "
         "follow the order of hexes"),
        ("scenario.victory.german.0.names.1", "'Volokolamsk' is not the town at 3733 (hexes.1), 'Kalinin': names "
         "follow the order of hexes"),
        ("scenario.victory.soviet.0.town", "expected a town's name, got None; the map's towns: " + ", ".join(
            sorted({t["name"] for t in board.towns().values()})))]
