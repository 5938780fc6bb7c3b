"""`pebbles`: a toy game added the way `docs/adding-a-game.md` says a game is added, so a
test can show the checklist is complete. Its package holds everything the game contract
asks of a game: its rules (`rules.py`: title, refusal sentences, static board and its JSON
Schema, demo plan), its events and state (`events.py`), its read-model figures
(`figures.py`) and its heap as a content pack (`packs/small/`); `tests/conftest.py`
registers it with one line, as `domain/games.py` registers a shipped game. It has no
renderer of its own: the replay page draws it with the generic one."""
