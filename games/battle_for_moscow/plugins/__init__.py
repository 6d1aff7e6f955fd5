"""Battle for Moscow's own plugins (what its data cannot say)."""
