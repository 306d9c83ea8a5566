"""Tron, the light cycles of the 2010 Google AI Challenge: its map format, rules, bots,
the contest's wire protocol and how it is drawn.

The modules, one a role (:mod:`atlas.games`): :mod:`.format`, :mod:`.rules`, :mod:`.bots`,
:mod:`.protocol`, :mod:`.painter`.
"""
