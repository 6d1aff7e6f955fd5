"""Battle for Moscow (GDW/Chadwick): the pack folder; its plugins are in :mod:`.plugins`."""
