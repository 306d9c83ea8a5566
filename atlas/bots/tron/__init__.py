"""The built-in tron bots: a greedy filler and three searches on Voronoi territory."""
