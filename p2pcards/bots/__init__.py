"""Bots: players that see only their seat's view and its legal actions."""
