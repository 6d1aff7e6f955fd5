"""Kestrel Pass: a small fictional game of Casebook's own design, made of data alone (no Python)."""
