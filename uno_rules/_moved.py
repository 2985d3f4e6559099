"""The modules' old import paths, from before the package was put in layer folders
(``uno_rules.simulate`` is now ``uno_rules.sim.simulate``). Importing an old path gives the
module itself, not a copy: ``uno_rules.simulate is uno_rules.sim.simulate``, so its names,
and any patch made through either path, are the same. New code imports the new paths."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

#: old path -> new path (README's Layout section has the folders and what each holds)
MOVED = {
    "uno_rules.position": "uno_rules.engine.position",
    "uno_rules.agents": "uno_rules.play.agents",
    "uno_rules.match": "uno_rules.play.match",
    "uno_rules.record": "uno_rules.play.record",
    "uno_rules.simulate": "uno_rules.sim.simulate",
    "uno_rules.matchsim": "uno_rules.sim.matchsim",
    "uno_rules.recordsim": "uno_rules.sim.recordsim",
    "uno_rules.compare": "uno_rules.sim.compare",
    "uno_rules.stats": "uno_rules.sim.stats",
    "uno_rules.plots": "uno_rules.sim.plots",
    "uno_rules.workers": "uno_rules.sim.workers",
    "uno_rules.distributed": "uno_rules.sim.distributed",
    "uno_rules.spaces": "uno_rules.rl.spaces",
    "uno_rules.observation": "uno_rules.rl.observation",
    "uno_rules.pettingzoo": "uno_rules.rl.pettingzoo",
    "uno_rules.gymnasium": "uno_rules.rl.gymnasium",
    "uno_rules.openspiel": "uno_rules.rl.openspiel",
    "uno_rules.scenario": "uno_rules.authoring.scenario",
    "uno_rules.explain": "uno_rules.authoring.explain",
    "uno_rules.docs": "uno_rules.authoring.docs",
    "uno_rules.cli_common": "uno_rules.cli.common",
    "uno_rules.progress": "uno_rules.cli.progress",
    "uno_rules.table.commands": "uno_rules.cli.play",
    "uno_rules.web.command": "uno_rules.cli.serve",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and loads it as the module at its new path."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def __init__(self) -> None:
        self.specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        self.specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran when it was imported at its new path. The import
        system has just set its ``__spec__`` to the old path's: the module's own is put
        back, or its relative imports would read another package (and warn)."""
        module.__spec__ = self.specs.pop(module.__name__)


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Alias())  # before any finder that could find a stale file
