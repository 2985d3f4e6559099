"""An agent module that fails while it is imported (its message spans two lines)."""

raise RuntimeError("boom\nsecond line")
