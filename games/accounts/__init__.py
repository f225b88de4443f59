"""Accounts and moderation: verified email, deletion, export, and the moderators' actions (docs/ACCOUNTS.md)."""
