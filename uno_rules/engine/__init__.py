"""The rules engine: the compiled rulebook model, the state of a round and the interpreter
that runs it. Imports nothing outside this folder (the compiled build compiles it)."""
