"""Tournaments over the application: the record's aggregate, the use cases, the assignment
solver for Swiss rounds, results followed from the games, exports and imports."""
