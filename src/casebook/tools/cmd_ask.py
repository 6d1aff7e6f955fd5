"""``casebook ask POSITION QUESTION [ARGS]…`` — the rules lawyer's questions about a position.

The position file is loaded and validated (its own inline map or its pack's map), the game's
engine is built, and the question goes to the plugins through the ``casebook_answer`` hook; the
plugin owning the question answers with a plain dict whose ``cases`` list names the cases that
decided it. ``--json`` prints that dict; otherwise it is printed as readable YAML-like text.
Every question is documented with an example in ``docs/ask.md``; each plugin lists the questions
it answers in its module constant ``QUESTIONS`` (question -> usage line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from casebook.core.errors import QuestionError

__all__ = ["ask", "ask_position", "answer_ctx", "render_text"]


def _csv(value: str | None) -> list[str] | None:
    return None if value is None else [v for v in value.split(",") if v]


def ask_position(position: str, question: str, args: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Answer ``question`` about the position file ``position``; raises PositionError (bad file)
    or QuestionError (no plugin answers, or the question is malformed)."""
    from casebook.core.engine import load_engine, state_from_position
    from casebook.core.position import load_position, pack_dir_near

    pos = load_position(position)
    # the pack the position belongs to (a copied pack above the file), as load_position used
    here = Path(position) if "\n" not in position and Path(position).is_file() else None
    engine = load_engine(pack_dir_near(pos.game, here) or pos.game)
    return answer_ctx(engine.ctx(state_from_position(pos)), question, args, options)


def answer_ctx(ctx: Any, question: str, args: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Answer ``question`` on a context (a position bound to its engine); QuestionError if no
    plugin answers it (the message lists the questions the game's plugins answer)."""
    answer = ctx.hook.casebook_answer(ctx=ctx, question=question, args=list(args), options=options)
    if answer is None:
        known: dict[str, str] = {}
        for module in ctx.engine.pm.modules.values():
            known.update(getattr(module, "QUESTIONS", {}) or {})
        listing = "\n".join(f"  {usage}" for _, usage in sorted(known.items())) or "  (none: no plugin answers questions)"
        raise QuestionError(f"no rules plugin of {ctx.pack.id} answers {question!r}; questions:\n{listing}")
    return answer


def render_text(answer: dict[str, Any]) -> str:
    """An answer as readable indented text."""
    return "\n".join(_text(answer))


def _text(value: Any, indent: int = 0) -> list[str]:
    pad = "  " * indent
    if isinstance(value, dict):
        lines = []
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}{k}:")
                lines += _text(v, indent + 1)
            else:
                lines.append(f"{pad}{k}: {json.dumps(v, ensure_ascii=False)}")
        return lines
    if isinstance(value, list):
        lines = []
        for item in value:
            if isinstance(item, (dict, list)):
                sub = _text(item, indent + 1)
                lines.append(f"{pad}- {sub[0].strip()}")
                lines += sub[1:]
            else:
                lines.append(f"{pad}- {json.dumps(item, ensure_ascii=False)}")
        return lines
    return [f"{pad}{json.dumps(value, ensure_ascii=False)}"]


@click.command(context_settings={"ignore_unknown_options": False})
@click.argument("position", type=click.Path(exists=True, dir_okay=False))
@click.argument("question")
@click.argument("args", nargs=-1)
@click.option("--as", "as_", metavar="MODE", help="Movement mode: hq, stack, reaction, unactivated, force-march.")
@click.option("--for", "for_", metavar="UNIT", help="Ask on behalf of this unit (zoc).")
@click.option("--with", "with_", metavar="U,U…", help="Attacking units (attack).")
@click.option("--support", metavar="A,D", help="IPs of combat support, attacker then defender (attack).")
@click.option("--overrun", is_flag=True, help="The attack is an overrun (9.5).")
@click.option("--roll", type=int, help="Resolve with this die roll (attack, income).")
@click.option("--hexes", type=int, help="Hexes of retreat (retreat).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def ask(position: str, question: str, args: tuple[str, ...], as_: str | None, for_: str | None,
        with_: str | None, support: str | None, overrun: bool, roll: int | None, hexes: int | None,
        as_json: bool) -> None:
    """Ask QUESTION about the position in POSITION; every answer lists the cases that decided it.

    Questions: supply UNIT · reach STACK · move STACK HEX HEX… · zoc HEX · command UNIT ·
    stacking HEX · income SIDE · weather · attack HEX · retreat UNIT · vp (see docs/ask.md).
    """
    options: dict[str, Any] = {}
    if as_ is not None:
        options["as"] = as_
    if for_ is not None:
        options["for"] = for_
    if with_ is not None:
        options["with"] = _csv(with_)
    if support is not None:
        parts = _csv(support) or []
        try:
            options["support"] = [int(p) for p in parts]
        except ValueError:
            raise click.BadParameter(f"expected two IP numbers 'A,D', got {support!r}", param_hint="--support") from None
    if overrun:
        options["overrun"] = True
    if roll is not None:
        options["roll"] = roll
    if hexes is not None:
        options["hexes"] = hexes
    answer = ask_position(position, question, list(args), options)
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, sort_keys=False))
    else:
        click.echo(render_text(answer))
    sys.stdout.flush()
