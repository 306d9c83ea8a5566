"""The built-in isolation bots: the seed's phased alpha-beta and a stronger search."""
