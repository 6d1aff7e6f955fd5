"""The content layer: a pack's files read under one YAML policy (:mod:`.yamlio`), checked against
schemas built from the pack's vocabulary (:mod:`.schema`, :mod:`.schema_pack`, …), with errata
overlays applied (:mod:`.provenance`), loaded and cached (:mod:`.loader`, :mod:`.packcache`);
positions and saves (:mod:`.position`, :mod:`.savecheck`) and the case index and registry
(:mod:`.cases`). It builds on :mod:`casebook.core` and names no game."""
