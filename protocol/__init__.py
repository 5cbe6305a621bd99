"""The network side of p2pcards: it knows nothing of any game's rules (cards are integers)."""
