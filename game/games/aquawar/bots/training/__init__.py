"""Offline tools that make the bots' small data files from the levels' own matches (never run by the site)."""
