"""Pure functions over numpy grids: components, articulation points, distances, Voronoi,
chambers, the parity bound, Outpost influence and supply lines, and map validation.

Each public function validates its input and hands flat arrays to a numba kernel;
kernels are importable from their modules for use inside other compiled code.
"""
