"""Terminal user interface."""
