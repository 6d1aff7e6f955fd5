"""Moscow '41 (TSR): the pack folder; its plugins are in :mod:`.plugins`."""
