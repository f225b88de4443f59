"""At the table: chat, rematch, the watch list, notifications and help pages."""
