"""Tic-tac-toe, written the way a fifth game joins atlas: a rules module, a bots
package, a render module and one :func:`atlas.sim.registry.register_game` call
(``tests/sim/test_fifth_game.py``; ``docs/development.md`` walks through it)."""
