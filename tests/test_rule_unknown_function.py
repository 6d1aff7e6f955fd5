"""``casebook rules check`` on a misspelt function (session 16's fresh-user trial: `terain(hex) is
hils` gave a second error, "unknown fact `hils`", with no did-you-mean): the misspelt function is
the one error, with its did-you-mean; what it is compared with is not reported again."""

from __future__ import annotations

from tests.test_offer_lines import _error


def test_a_misspelt_function_is_one_error_with_its_did_you_mean():
    text = _error("  require terain(map_hex) is hils by KP11.2\n")
    assert "x.rules:2:11:" in text and "unknown function `terain`" in text and "did you mean `terrain`?" in text
    assert "hils" not in text.split("unknown function", 1)[1].split("\n", 1)[0]   # the message names no follow-on
    assert "unknown fact `hils`" not in text and "unknown value `hils`" not in text

