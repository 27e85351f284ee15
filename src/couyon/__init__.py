"""Couyon, the Ardennes trick-taking game: rules engine, bots, server and web table."""

__version__ = "0.1.0"
