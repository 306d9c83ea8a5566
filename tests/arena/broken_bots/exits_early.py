"""Broken bot: exits cleanly (status 0) before reading anything."""
