"""Tournaments (arena, Swiss, round robin) and seasons: a plug-in of the match core (docs/TOURNAMENTS.md)."""
