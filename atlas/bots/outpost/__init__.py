"""The built-in Outpost bots."""
