"""Moscow '41's own plugins: one module per rules area the game implements in Python."""
