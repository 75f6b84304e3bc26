"""Storage backends."""

from .base import Storage
from .jsonfile import JSONStorage
from .memory import MemoryStorage

__all__ = ["JSONStorage", "MemoryStorage", "Storage"]
