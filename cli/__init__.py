"""The `caboose` command."""
