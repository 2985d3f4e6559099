"""OpenSpiel's Python observer for uno_rules/rl/openspiel.py: the observation and
information-state strings and tensors of a state (``make_py_observer``)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .observation import Observer
from .recall import RecallTensor, private_history, public_history


class StateObserver:
    """OpenSpiel's Python observer: ``tensor`` (float32) and ``dict`` (a named view of it per
    segment) filled by :meth:`set_from`, strings by :meth:`string_from`. The observation is
    the seat's view (:class:`uno_rules.rl.observation.Observer`'s segments) and the counts
    of the cards played this round; the information state (``perfect_recall``) adds the
    seat's memory (:mod:`uno_rules.rl.recall`): its own hand's changes and the public
    history, passes included."""

    def __init__(self, spec: Any, perfect_recall: bool,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.spec, self.perfect_recall = spec, perfect_recall
        self.observer = Observer(spec.rulebook, spec.players)
        self.recall = RecallTensor(spec.table, spec.faces, spec.players)
        parts = self.recall.parts if perfect_recall else self.recall.parts[:1]
        base = self.observer.size
        self.tensor = np.zeros(base + sum(n for _, n in parts), np.float32)
        self.dict: dict[str, np.ndarray] = {
            s.name: self.tensor[s.offset:s.offset + s.length] for s in self.observer.spaces}
        for name, length in parts:
            self.dict[name] = self.tensor[base:base + length]
            base += length

    def set_from(self, state: Any, player: int) -> None:
        game = state.uno_game
        self.tensor.fill(0)
        if game is None:  # not dealt: nothing seen yet
            return
        size = self.observer.size
        self.tensor[:size] = self.observer.array(game, player)
        if self.perfect_recall:
            self.recall.fill(self.tensor[size:], game, player, state.memory)
        else:
            self.dict["played"][:] = self.recall.played(state.memory)

    def string_from(self, state: Any, player: int) -> str:
        game = state.uno_game
        if game is None:
            return f"seat {player}: not dealt"
        view = json.dumps(game.view(player), sort_keys=True)
        if not self.perfect_recall:
            return view
        return "\n".join((view, " | ".join(public_history(game, player, state.memory)),
                          " | ".join(private_history(game, player, state.memory))))


__all__ = ["StateObserver"]
