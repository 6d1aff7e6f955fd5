"""``casebook rules check GAME_OR_DIR``: compile a game's rule scripts; report every error at once.

GAME_OR_DIR is an installed game id (``moscow41``), a content pack directory (with ``game.yaml``
or ``cases.yaml``) or a rules directory (with ``facts.yaml``). The scripts are those the manifest
lists under ``rules:`` (relative to ``rules_dir``, default the pack's ``rules/``). Exit 1 with
every problem as ``file:line:column: name: message`` (plus the source line and a caret), or exit 0
with a summary: the warnings (lines that never fire or are always overridden, quantities whose
callers' inputs are not declared; see :mod:`casebook.script.checks`), the quantities, the
permissions and the cases cited.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from casebook.core.errors import ContentError, ScriptSyntaxError
from casebook.script import compile_pack, find_rule_pack
from casebook.tools.cli import game_argument

__all__ = ["rules"]


def _lines_of(q: Any) -> str:
    """What a compiled quantity holds, in the script's words: its terms (a group's members each),
    its ``start``/``otherwise`` line, e.g. ``2 terms + start``, ``otherwise only`` (a quantity
    whose value is that one line), ``no terms`` (it was ``0 terms`` for an ``otherwise`` alone)."""
    n_terms = sum(max(len(t.members), 1) for t in q.terms)
    base = ""
    if q.base_code is not None:
        word = q.base_code.text.split(maxsplit=1)[0] if q.base_code.text else ""
        base = word if word in ("start", "otherwise") else "start"
    terms = f"{n_terms} term{'s' if n_terms != 1 else ''}"
    if not base:
        return terms if n_terms else "no terms"
    return f"{terms} + {base}" if n_terms else f"{base} only"


@click.group("rules")
def rules() -> None:
    """Rule scripts: compile, check and summarise a game's scripts."""


@rules.command("check")
@click.argument("game_or_dir", callback=game_argument)
@click.pass_context
def check(ctx: click.Context, game_or_dir: str) -> None:
    """Compile every rule script of GAME_OR_DIR and list all errors (exit 1) or a summary."""
    try:
        pack = find_rule_pack(game_or_dir)
        ruleset = compile_pack(pack, relative_to=Path.cwd())
    except (ContentError, ScriptSyntaxError) as exc:
        for problem in exc.problems:
            click.echo(str(problem))
        click.echo(f"{game_or_dir}: {exc.summary}")
        ctx.exit(1)
        return
    click.echo(f"{pack.game}: {len(pack.files)} rule scripts compiled, no errors"
               + (f", {len(ruleset.warnings)} warnings" if ruleset.warnings else ""))
    for warning in ruleset.warnings:
        click.echo(f"warning: {warning}")
    click.echo(f"quantities ({len(ruleset.quantities)}):")
    for name, q in ruleset.quantities.items():
        click.echo(f"  {name:<20} {q.mode:<8} {_lines_of(q):<18} {q.code.source}")
    click.echo(f"permissions ({len(ruleset.permissions)}):")
    for action, p in ruleset.permissions.items():
        forbids = sum(1 for v, _, _ in p.lines if v == "forbid")
        permits = len(p.lines) - forbids
        click.echo(f"  {action:<20} {forbids} forbid, {permits} permit")
    if ruleset.triggers:
        click.echo(f"triggers ({sum(len(ts) for ts in ruleset.triggers.values())}):")
        for event, ts in ruleset.triggers.items():
            for t in ts:
                click.echo(f"  when {event.replace('_', ' '):<16} {t.effect.replace('_', ' ')} {t.arg}  {t.code.source}")
    offers = getattr(ruleset, "offers", ())
    if offers:
        click.echo(f"declared actions ({len(offers)}):")
        for o in offers:
            parts = [f"{len(o.costs)} cost", f"{sum(r.verdict == 'require' for r in o.rules)} require",
                     f"{sum(r.verdict == 'forbid' for r in o.rules)} forbid", f"{len(o.effects)} effect"]
            click.echo(f"  {o.kind:<20} in step {o.step}, to {o.side or 'phasing'}"
                       f"{f', one per {o.arg}' if o.arg else ''}; {', '.join(parts)}  {o.code.source}")
    cited = ruleset.cases_cited()
    click.echo(f"cases cited ({len(cited)}): {', '.join(cited)}")
