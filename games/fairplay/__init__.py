"""Fair play at the table: who is present, what happens when a player leaves (claims, bots in the
leaver's seat, queue entries of closed pages), and which rated games change no rating.

A plug-in of the match core like ``games.ranking``: its endings go through ``games.services.command``
and are events of the match's own log (``claimed``, ``abandoned``), checked by ``games.verify``.
"""
