"""The shared supply/command search area (``casebook.areas.supply``, ``_supply_search``, and the
multi-source searches of ``areas/search.py``): game-neutral, and giving the answers the Moscow '41
plugins had computed themselves."""

from __future__ import annotations

import re
from pathlib import Path

from casebook.areas import search
from casebook.areas import supply as area
from casebook.areas.search import paths_within
from casebook.core.game import Game
from casebook.core.hexgrid import parse_hex

AREA = Path(__file__).resolve().parent.parent / "src" / "casebook" / "areas"
GAME_WORDS = re.compile(r"german|soviet|moscow|partisan|hedgehog|guards|panzer", re.IGNORECASE)


def test_the_supply_area_names_no_game():
    """No side, game or game-specific term in the area's modules (sides come from the caller)."""
    for name in ("supply.py", "_supply_search.py", "search.py", "supply_paths.py", "supply_trace.py", "command.py"):
        text = (AREA / name).read_text(encoding="utf-8")
        assert not GAME_WORDS.findall(text), name


def test_radius_reach_gives_the_paths_of_a_search_with_every_blocked_hex():
    """radius_reach reads only the blocked hexes within the radius: for every HQ of the October
    Blitz set-up its paths equal search.paths_within's with the whole blocked map."""
    from casebook.games.moscow41.plugins._area_config import command_paths
    ctx = Game.load("moscow41", "october-blitz").new_initial_state(1).ctx()
    hqs = [u for u in ctx.state.units if u.get("class") == "hq" and u.get("hex")]
    assert len(hqs) > 10
    for hq in hqs:
        start, radius = parse_hex(hq["hex"]), int(hq["radius"])
        blocked = command_paths(ctx).blocked(ctx, hq["side"])
        assert area.radius_reach(ctx, start, radius, blocked) == paths_within(ctx.board, start, radius, blocked)


def test_line_network_follows_the_supply_line_lines():
    """line_network asks `supply_line` per kind: in Moscow '41 the Soviet network holds every
    German line hex plus the rail-only ones (5.2B-C), and every rail-only step is Soviet."""
    ctx = Game.load("moscow41", "october-blitz").new_initial_state(1).ctx()
    assert area.line_kinds(ctx, "german") == ("road", "trail")
    assert area.line_kinds(ctx, "soviet") == ("road", "trail", "rail")
    g_adj, g_rail = area.line_network(ctx, "german")
    s_adj, s_rail = area.line_network(ctx, "soviet")
    assert set(g_adj) < set(s_adj) and not any(g_rail.values()) and any(s_rail.values())


def test_multi_source_bfs_and_walk_back():
    """Fewest steps from two sources on a path graph 0-1-2-3-4 with 2 closed: 3 and 4 are
    reached from source 4 only, and the path walks back to its source."""
    adj = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2, 4], 4: [3]}
    dist, pred = search.multi_source_bfs([0, 4], adj, closed={2})
    assert dist == {0: 0, 4: 0, 1: 1, 3: 1}
    assert search.walk_back(pred, 1) == [1, 0] and search.walk_back(pred, 3) == [3, 4]
