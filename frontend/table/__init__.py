"""At the table (issue 16): chat, rematch, the watch list, notifications and help pages."""
