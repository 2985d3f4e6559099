"""The web playground (``uno-rules serve``, the ``[web]`` extra): a local page to write a
rulebook and see its problems and rules sheet, simulate and compare variants, and play them,
over a small JSON API (docs/web.md). Nothing here is imported by the engine or the CLI
unless ``serve`` runs."""
