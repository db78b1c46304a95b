"""Persistence: the SQLite store (see db.py)."""
from pbem.store.db import Store, StoredEvent, utcnow

__all__ = ["Store", "StoredEvent", "utcnow"]
