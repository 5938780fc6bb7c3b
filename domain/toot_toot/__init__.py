"""Toot-Toot Train (火車嘟嘟): draw track on a hex map, drive a train that keeps its heading,
take, process and sell goods against public and secret orders (docs/rules/toot_toot.md)."""
