"""Persistence: the SQLite store, the only package that speaks SQL (see db.py)."""
from pbem.store.base import (
    StoreError,
    TransientStoreError,
    describe_db_error,
    is_db_error,
    is_transient_db_error,
)
from pbem.store.db import Store, StoredEvent, utcnow

__all__ = ["Store", "StoreError", "StoredEvent", "TransientStoreError", "describe_db_error", "is_db_error",
           "is_transient_db_error", "utcnow"]
