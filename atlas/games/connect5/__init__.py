"""Connect5, discs dropped in columns until five stand in a row: its map format, rules,
bots, its GTP dialect and how it is drawn.

The modules, one a role (:mod:`atlas.games`): :mod:`.format`, :mod:`.rules`, :mod:`.bots`,
:mod:`.protocol`, :mod:`.painter`.
"""
