"""Storage kept in memory, for tests and caches."""

import copy
from typing import Optional

from .base import Data, Storage


class MemoryStorage(Storage):
    """Keep a deep copy of the data in memory."""

    def __init__(self, initial: Optional[Data] = None):
        self._data = copy.deepcopy(initial)
        self.writes = 0

    def read(self) -> Optional[Data]:
        """Return a deep copy of the stored data."""
        return copy.deepcopy(self._data)

    def write(self, data: Data) -> None:
        """Store a deep copy of the data and count the write."""
        self._data = copy.deepcopy(data)
        self.writes += 1
