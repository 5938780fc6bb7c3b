"""Read models in SQL (boards, income tracks, VP tallies, timelines, game index) that
follow the event log, with runners that survive crashes and a rebuild from zero.

`handlers` hands the runner each game's own projector, as the game's rules declare it
(`Decider.figures`); nothing here names a game.
"""
