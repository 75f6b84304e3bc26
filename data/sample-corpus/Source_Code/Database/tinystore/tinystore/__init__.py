"""tinystore: a tiny document database kept in memory or in a JSON file."""

from tinystore.database import TinyStore
from tinystore.query import where
from tinystore.storage import JSONStorage, MemoryStorage

__version__ = "0.6.2"

__all__ = ["JSONStorage", "MemoryStorage", "TinyStore", "where"]
