"""Caboose's rules: pure Python, no I/O. `domain.core` holds the shared machinery,
one package per game holds that game's decider."""
