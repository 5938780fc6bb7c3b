"""Read models in SQL (boards, income tracks, VP tallies, timelines, game index) that
follow the event log. The runners and views arrive with the projections issue (#4)."""
