"""Every retreat path is the defender's to choose (#18): the prompt lists the best few of each
length, and ``retreat path=<…> losses=<…>`` takes any other legal one, judged by the retreat
rules (11.2A-B, 7.5A-B, 6.2F) that also answer ``ask retreat --path`` (one code path).

Positions, fakes and helpers are those of test_decisions_results (layout flat-top-even-q: 0304
touches 0303, 0305, 0203, 0204, 0403, 0404; the Soviet supply edge is the east one, 5.1C).
"""

from __future__ import annotations

import pytest

from casebook.core.actions import parse_action
from casebook.games.moscow41.plugins import results
from games.moscow41.tests import test_decisions_results as base
from games.moscow41.tests.test_decisions_results import FAKE, g, interactive, refused, s, templates

engine, pos = base.engine, base.pos   # the fixtures of test_decisions_results


def asked(ctx, hexes, path):
    answer = results.retreat_answer(ctx, "s1", hexes, path)
    return [c for r in answer["given"]["refusals"] for c in r["cases"]]


@pytest.mark.case("11.2A", "11.0B")
def test_11_2A_the_defender_retreats_by_any_legal_path_not_only_the_listed_ones(pos):
    # 11.0B "#": "The defending force can retreat the listed number of hexes, suffer the listed number
    # of combat losses, or combine these as desired"; a 2: retreat 2 hexes, any way the rules allow
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304"))
    interactive(ctx, "-/2")
    listed = [a for a in results.casebook_legal_actions(ctx, "first_player", "combat") if a.get("path")]
    assert len([a for a in listed if len(a.get("path")) == 2]) == 3           # the best three of length 2
    answer = results.retreat_answer(ctx, "s1", 2)
    hidden = [o["path"] for o in answer["options"] if not o["offered"]]
    assert len(answer["options"]) > 3 and hidden                                 # more legal paths than listed
    [tpl] = [t for t in templates(ctx) if t.kind == "retreat" and "path" in dict(t.free)]
    assert [n for n, _ in tpl.free] == ["losses", "path", "units"]
    path = hidden[-1]
    text = f"soviet: retreat path={','.join(path)} losses=0"
    assert parse_action(text) not in listed and tpl.matches(parse_action(text))
    assert refused(ctx, text) == [] and asked(ctx, 2, path) == []               # play and ask agree
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action(text))
    assert ctx.state.unit("s1")["hex"] == path[-1] and not ctx.state.unit("s1").get("losses")
    assert {"effect": "retreat", "units": ["s1"], "path": path, "cases": ["11.2A", "11.2B"]} in out["effects"]


@pytest.mark.case("11.2B", "7.5A", "11.2A")
def test_11_2B_a_typed_retreat_path_is_refused_by_the_retreat_rules(pos):
    # 11.2B: "A unit cannot enter an enemy-occupied hex. A retreating unit cannot enter an EZOC unless
    # that hex is occupied by a friendly unit."
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304"))
    FAKE.zoc["soviet"] = {"0305"}
    interactive(ctx, "-/2")
    for path, losses, cases in ((["0303"], 1, ["11.2B"]),                        # the attacker's hex
                                (["0305"], 1, ["11.2B", "7.5A"]),                # an EZOC, nobody friendly
                                (["0404", "0606"], 0, ["11.2A"]),                # not hex by hex
                                (["0404", "0304"], 0, ["11.2A", "11.2D"]),       # back into the start
                                (["0404", "0405", "0406"], 0, ["11.2A"]),        # three hexes for a 2
                                (["0399"], 1, ["11.2A"])):                       # off the 8x8 map
        assert refused(ctx, f"soviet: retreat path={','.join(path)} losses={losses}") == cases
        if len(path) <= 2:
            assert asked(ctx, len(path), path) == cases                          # ask retreat --path: the same
    assert refused(ctx, "soviet: retreat path=0404 losses=0") == ["11.0B", "11.2B"]   # 1 hex of 2: 1 loss
    assert refused(ctx, "soviet: retreat path=0404 losses=1") == []
    assert ctx.state.unit("s1")["hex"] == "0304"                                  # nothing applied


@pytest.mark.case("11.2A")
def test_11_2A_a_path_starting_with_the_stacks_own_hex_says_to_list_only_the_hexes_entered(pos):
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304"))
    interactive(ctx, "-/2")
    refusals = ctx.hook.casebook_validate_action(ctx=ctx, action=parse_action("soviet: retreat path=0304,0404 losses=0"))
    assert [(r.reason, r.cases) for rs in refusals for r in rs] == [(
        "0304 is not adjacent to 0304: a retreat goes hex by hex (list only the hexes entered, not the stack's own)",
        ("11.2A",))]


@pytest.mark.case("11.2B", "7.5B")
def test_11_2B_an_R_retreats_as_far_as_possible(pos):
    # 11.2B: "it must retreat as far as possible and then suffer one combat loss per hex it was unable
    # to retreat" — an R may not be taken as a loss while a hex is open
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304") + s("s2", "0304", strength=4))
    interactive(ctx, "-/R")
    assert refused(ctx, "soviet: retreat losses=1") == ["11.2B", "7.5B"]
    assert asked(ctx, 1, []) == ["11.2B", "7.5B"]
    assert refused(ctx, "soviet: retreat path=0404 losses=0") == []


@pytest.mark.case("11.2B", "7.5A")
def test_11_2B_ask_retreat_path_on_the_command_line(repo_root):
    # docs/examples/retreat.yaml: s1 in 0304 attacked from 0303 and 0403; 0404 is in g2's ZOC
    import json

    from click.testing import CliRunner

    from casebook.tools.cmd_ask import ask
    example = str(repo_root / "docs/examples/retreat.yaml")
    ok = CliRunner().invoke(ask, [example, "retreat", "s1", "--hexes", "2", "--path", "0305,0405", "--json"])
    assert ok.exit_code == 0 and json.loads(ok.output)["given"] == {"path": ["0305", "0405"], "legal": True,
                                                                     "refusals": []}
    no = CliRunner().invoke(ask, [example, "retreat", "s1", "--hexes", "1", "--path", "0404", "--json"])
    given = json.loads(no.output)["given"]
    assert given["legal"] is False and given["refusals"][0]["cases"] == ["11.2B", "7.5A"]


@pytest.mark.case("11.2B")
def test_11_2B_ask_retreat_path_off_the_map_is_a_usage_error_and_the_path_shown_once(repo_root):
    # the fresh-user trial: `--path 1214,1999` (a hex off the map) answered with exit 0 and a refusal;
    # docs/ask.md: "a hex off the map … is a usage error: one line saying what was expected, exit 2"
    from click.testing import CliRunner

    from casebook.tools.cmd_ask import ask
    example = str(repo_root / "docs/examples/retreat.yaml")
    off = CliRunner().invoke(ask, [example, "retreat", "s1", "--hexes", "2", "--path", "0305,0399"])
    assert off.exit_code == 2 and off.output.strip() == "--path: '0399' is not a hex of the map", off.output
    text = CliRunner().invoke(ask, [example, "retreat", "s1", "--hexes", "2", "--path", "0305,0405"]).output
    given = text.split("given:\n", 1)[1].split("cases:", 1)[0]
    assert given.count("path: 0305 → 0405") == 1, text  # once under given (the trial saw it twice)
