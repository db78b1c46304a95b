"""pbem: play-by-email adjudication for *Successors: The Battles for Alexander's Empire*."""

__version__ = "0.1.0"
