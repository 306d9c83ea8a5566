"""Games recorded by a game's original simulator, replayed and kept as atlas records.

A game whose original engine's recorded games atlas can replay says so in its ``rules``
module (the role of its rules, found through the registry): ``TRACES``, a
:class:`TraceImporter`.  ``atlas import-trace`` finds the games that offer one with
:func:`trace_importers` and names no game.
"""

from __future__ import annotations

import abc
import importlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .registry import game_modules, game_names

if TYPE_CHECKING:
    from ..maps import GameMap
    from .records import Record

__all__ = ["TraceImporter", "trace_importers"]


class TraceImporter(abc.ABC):
    """How the traces of a game's original simulator are read and replayed.

    Attributes
    ----------
    error : type of Exception
        What :meth:`read`, :meth:`find_map` and :meth:`to_record` raise for a trace that
        cannot be read or played (``atlas import-trace`` exits 2), naming the file and
        the line or turn.
    mismatch : type of Exception
        What :meth:`to_record` raises for a trace that plays but does not replay exactly
        (exit 1), naming the first turn, seat and field that differ.
    """

    error: type[Exception] = Exception
    mismatch: type[Exception] = Exception

    @abc.abstractmethod
    def read(self, path: str | os.PathLike[str]) -> Any:
        """The trace in the file ``path``."""

    @abc.abstractmethod
    def find_map(self, trace: Any) -> Path:
        """The map file the trace names, looked for where traces are kept."""

    @abc.abstractmethod
    def read_map(self, path: str | os.PathLike[str]) -> GameMap:
        """The map in the file ``path``, read as a map of this game
        (:class:`~atlas.errors.MapFormatError` when it is not one)."""

    @abc.abstractmethod
    def to_record(self, trace: Any, game_map: GameMap) -> Record:
        """The atlas replay record of ``trace`` played on ``game_map``."""

    @abc.abstractmethod
    def turns(self, trace: Any) -> int:
        """The number of turns the trace holds."""

    @abc.abstractmethod
    def params(self, trace: Any) -> Mapping[str, Any]:
        """The game's parameters the trace names, as its report lists them
        (``name=value`` each)."""

    @abc.abstractmethod
    def players(self, trace: Any) -> Sequence[str]:
        """The players' names, seat by seat."""

    @abc.abstractmethod
    def final(self, record: Record) -> Mapping[str, Any]:
        """The figures of the end of the game the report gives (``name value`` each)."""


def trace_importers() -> dict[str, TraceImporter]:
    """Game -> its :class:`TraceImporter`, for each registered game whose rules offer
    one, in the registry's order."""
    out = {}
    for game in game_names():
        importer = getattr(importlib.import_module(game_modules(game).rules), "TRACES", None)
        if importer is not None:
            out[game] = importer
    return out
