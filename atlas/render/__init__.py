"""Pictures, GIF replays and the static site.

* :mod:`~atlas.render.palette` -- the one colour table (Okabe–Ito seats, shapes);
* :mod:`~atlas.render.images` -- map and Outpost pictures (``atlas analyze --png``);
* :mod:`~atlas.render.frames`, :mod:`~atlas.render.gif` -- replays as frames and GIFs
  (``atlas replay --gif``);
* :mod:`~atlas.render.viewer` -- the data of the in-page replay viewer;
* :mod:`~atlas.render.registry` -- how each game is drawn (one module per game);
* :mod:`~atlas.render.site` -- ``atlas build`` (its stages in
  :mod:`~atlas.render.site.build`, the pages in :mod:`~atlas.render.site.pages`).

Modules are imported on use; nothing heavy is imported here.
"""
