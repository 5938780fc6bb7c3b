"""Tournaments: events of many tables. Pure rules: the record's kinds, the fold, pairing,
places and points, standings and tie-breaks, and the derivation of seeds and seats."""
