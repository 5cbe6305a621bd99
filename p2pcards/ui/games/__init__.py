"""Per-game presenters for the screen (see ``ui/present.py``)."""
