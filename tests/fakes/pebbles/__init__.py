"""`pebbles`: a toy game added the way `docs/adding-a-game.md` says a game is added, so a
test can show the checklist is complete. Its rules are `rules.py` (the game's domain
package), its heap is a content pack (`packs/small/`), its projector is
`tests/fakes/pebbles_projector.py`, and `tests/conftest.py` registers it with one line,
as `domain/games.py` registers a shipped game. It has no renderer of its own: the replay
page draws it with the generic one."""
