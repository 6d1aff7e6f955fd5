"""Battle for Moscow map (BM2.2E rivers, BM2.2F rails): the hexsides re-derived from a
transcription of the published GDW map (docs/battle-for-moscow-pack.md, "Map sources")."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from casebook.content.yamlio import load_yaml

MAP = Path(__file__).resolve().parents[1] / "map.yaml"
#: the five river hexsides shared/reference/battle-for-moscow.md prints as examples
EXAMPLES = {("0105", "0205"), ("0404", "0505"), ("0805", "0806"), ("1002", "1103"), ("1103", "1104")}


@pytest.fixture(scope="module")
def game_map():
    return load_yaml(MAP).data


def _sides(m, flag):
    return {tuple(sorted(s["hexes"])) for s in m["hexsides"] if s.get(flag)}


@pytest.mark.case("BM2.2E")
def test_BM2_2E_the_rivers_are_the_published_maps(game_map):
    rivers = _sides(game_map, "river")
    assert EXAMPLES <= rivers
    assert len(rivers) == 59                          # the reference: "about 58"; the old stand-in had 34
    # the Dnepr under Smolensk, the Moskva west of Moscow, the Oka past Kaluga
    assert {("0204", "0205"), ("1003", "1103"), ("0805", "0806")} <= rivers
    assert ("0304", "0305") not in rivers             # a side the geography-drawn stand-in had wrong


@pytest.mark.case("BM2.2F")
def test_BM2_2F_every_city_is_on_the_rail_net_to_moscow(game_map):
    rails = _sides(game_map, "rail")
    assert len(rails) == 69
    net = nx.Graph(list(rails))
    assert set(game_map["towns"]) <= nx.node_connected_component(net, "1103")
    assert net.degree("1103") == 6                    # Moscow: six lines leave it


def test_every_river_and_rail_side_names_its_source(game_map):
    for s in game_map["hexsides"]:
        p = s["provenance"]
        if tuple(sorted(s["hexes"])) in EXAMPLES and not s.get("rail"):
            assert p == "rulebook: BM2.2E (battle-for-moscow.md example)"
        else:
            assert p.startswith("reconstructed:") and "MichaelRea-NZ/CAPP" in p, s
