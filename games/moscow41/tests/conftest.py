"""Fixtures of Moscow '41's own tests (its case tests: one per leaf case, named after it,
``@pytest.mark.case("9.6C")``, counted by ``casebook cases moscow41``). The session fixtures (the
pack cache, ``repo_root``, the ``m41`` engine) are the checkout's root ``conftest.py``."""

from __future__ import annotations

import pytest

from tests.conftest import make_ctx


@pytest.fixture
def position(m41):
    """``position(yaml_text, trace=False) -> Ctx`` on the Moscow '41 engine."""
    return lambda text, trace=False: make_ctx(m41, text, trace)
