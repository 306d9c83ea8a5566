"""What a build knows of each map and each game (:class:`MapEntry`,
:class:`GameEntry`): the stages of :mod:`atlas.render.site.build` fill them in, the
pages (:mod:`atlas.render.site.pages`) read them."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...maps import GameMap
from .cache import Cache
from .output import SiteWriter

__all__ = ["MapEntry", "GameEntry", "BuildContext", "progress_bar"]


@dataclass
class MapEntry:
    """A map as the site shows it."""

    game: str
    name: str
    slug: str
    path: str
    text: str = ""
    game_map: GameMap | None = None
    error: str | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    chambers: list[dict[str, Any]] = field(default_factory=list)
    images: dict[str, str] = field(default_factory=dict)
    validation: dict[str, Any] | None = None
    #: The file as the pages name it (from its folder:
    #: :func:`~atlas.render.site.sources.shown_paths`).
    shown_path: str = ""
    #: The validation report's file in the site (``validation/SLUG.json``).
    report_file: str | None = None
    games: list[GameEntry] = field(default_factory=list)
    featured: GameEntry | None = None
    overlays: list[tuple[str, str]] = field(default_factory=list)
    #: The map's fairness section (:func:`atlas.render.site.fairness.section_data`).
    fairness: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.game_map is not None

    @property
    def valid(self) -> bool:
        return self.ok and (self.validation is None or bool(self.validation.get("valid")))

    @property
    def page(self) -> str:
        return f"maps/{self.slug}.html"


@dataclass
class GameEntry:
    """A played game as the site shows it.

    ``meta`` holds what the index and the map pages need without the viewer data:
    ``interest`` (:func:`atlas.render.viewer.interest`), ``has_info``, ``has_cpu``, ``series``
    (the charted measures' names and units).  ``viewer`` (the packed viewer data) is
    read from the cache when the game's page is written (:meth:`viewer_data`).
    """

    ident: str
    record: Any
    origin: str = "tournament"
    map_slug: str | None = None
    gif: str | None = None
    viewer: dict[str, Any] | None = None
    digest: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    replay_key: str | None = None
    record_file: str | None = None
    record_kb: int = 0
    refused: bool = False
    #: The organiser's tournament (``atlas build --tournament DIR``) the game belongs to.
    event: str | None = None
    #: Why the tournament voided the game (lost on time while the machine was loaded:
    #: :func:`atlas.arena.timing.void_reason`), or ``None`` when it counts.
    voided: str | None = None
    _cache: Any = field(default=None, repr=False, compare=False)

    @property
    def page(self) -> str:
        return f"games/{self.ident}.html"

    @property
    def has_info(self) -> bool:
        return bool(self.meta.get("has_info"))

    @property
    def has_cpu(self) -> bool:
        """Whether the record keeps its answers' CPU times (records made before they
        were recorded do not)."""
        return bool(self.meta.get("has_cpu"))

    @property
    def drawn(self) -> bool:
        """Whether the replay could be drawn (a viewer and a GIF exist)."""
        return self.gif is not None

    def viewer_data(self) -> dict[str, Any] | None:
        """The packed viewer data (from memory or the cache)."""
        if self.viewer is None and self._cache is not None and self.replay_key:
            self.viewer = self._cache.get_json("viewer", self.replay_key)
        return self.viewer


@dataclass
class BuildContext:
    """What the stages of one build share: the site being written, the content cache,
    the code versions their keys hold, and whether to draw progress bars."""

    out: SiteWriter
    cache: Cache
    version: dict[str, str]
    progress: bool = False


def progress_bar(
    items: Iterable[Any], desc: str, progress: bool, total: int | None = None
) -> Any:
    """``items``, with a progress bar on standard error when ``progress``."""
    if not progress:
        return items
    from tqdm import tqdm

    return tqdm(
        items, desc=desc, total=total, unit="", leave=False, file=sys.stderr, dynamic_ncols=True
    )
