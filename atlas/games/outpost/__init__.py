"""Outpost, the four-empire territory game of a 2014 university course: its map format,
its analyses (influence, supply lines), the rules a submitted map must follow, the rules
of play, bots and how it is drawn.

The modules, one a role (:mod:`atlas.games`): :mod:`.format`, :mod:`.analysis`,
:mod:`.validation`, :mod:`.rules`, :mod:`.bots`, :mod:`.painter`.
"""
