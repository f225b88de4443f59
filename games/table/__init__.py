"""At the table: chat, rematches, the watch list and turn notifications.

A plug-in of the match core like ranked play: it reads matches through
``games.selectors`` and creates them through ``games.services``; nothing here
is part of a match's event log or hash chain.
"""
