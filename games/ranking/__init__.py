"""Ranked online play: ladders, matchmaking, challenges and clocks.

Match-level endings (resign, abort, time-out, a seat handed to a bot) and the
rated flag and time control live in each match's own event log
(:mod:`games.aggregate`); this app adds what is per user or per game: rating
events and the ladders rebuilt from them, the matchmaking queue, challenges and
the derived clock deadlines that the timeout task watches.
"""
