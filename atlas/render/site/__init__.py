"""``atlas build``: the static site.

:mod:`~atlas.render.site.build` holds :class:`~atlas.render.site.build.BuildOptions` and
the build's stages, which call :mod:`~atlas.render.site.analysis` (the maps),
:mod:`~atlas.render.site.tournament` and :mod:`~atlas.render.site.schedule` (the
built-in tournament), :mod:`~atlas.render.site.sources` (saved records, organisers'
folders), :mod:`~atlas.render.site.replays`, :mod:`~atlas.render.site.fairness`
(each map's fairness section), :mod:`~atlas.render.site.pages` and
:mod:`~atlas.render.site.swap`; :mod:`~atlas.render.site.cache` and
:mod:`~atlas.render.site.output` keep results and write files.
"""
