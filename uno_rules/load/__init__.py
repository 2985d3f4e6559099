"""Loading rulebooks: YAML with positions, the JSON Schema, semantic checks, compilation
into the engine's frozen records, and where rulebook files may be found."""
