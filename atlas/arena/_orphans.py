"""Imported by multiprocessing's fork server as it starts (its preload, set by
:func:`atlas.arena.pool.pool_context`): the server asks the kernel for ``SIGKILL``
when the atlas process that started it ends, however it ends (``SIGKILL`` included).
Every worker it forks asks the same of it (:func:`atlas.arena.pool.die_with_parent`),
so a killed run of atlas leaves no fork server and no worker behind."""

from .pool import die_with_parent

die_with_parent()
