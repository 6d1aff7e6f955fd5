"""The rule-script language: case-tagged quantities and permissions that explain themselves.

Scripts (``games/<game>/rules/*.rules``) are parsed with lark (``rules.lark``), checked against the game's
facts declaration (``facts.yaml``) and case index, and compiled to closures. Evaluating a quantity
returns its value, or an :class:`Explanation` listing every line with its cases and ``file:line``.
See ``docs/rule-language.md``.
"""

from __future__ import annotations

from .compiler import compile_files, compile_scripts
from .explain import Explanation, Line
from .facts import AskedFacts, FactSchema, FactType, facts_from_mapping, load_facts
from .pack import RulePack, compile_pack, find_rule_pack
from .parser import parse_file, parse_script
from .ruleset import RuleSet
from .values import MissingFactError

__all__ = [
    "RuleSet", "compile_scripts", "compile_files", "Explanation", "Line", "MissingFactError",
    "AskedFacts", "FactSchema", "FactType", "load_facts", "facts_from_mapping", "parse_script", "parse_file",
    "RulePack", "find_rule_pack", "compile_pack",
]
