"""Isolation, queen or knight moves on a board whose left squares are blocked: its map
format, rules, bots and how it is drawn.

The modules, one a role (:mod:`atlas.games`): :mod:`.format`, :mod:`.rules`, :mod:`.bots`,
:mod:`.painter`.
"""
