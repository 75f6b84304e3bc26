"""The storage interface used by TinyStore."""

from abc import ABC, abstractmethod
from typing import Any, Dict, Optional

Data = Dict[str, Dict[str, Any]]


class Storage(ABC):
    """Reads and writes the whole database as one nested dict."""

    @abstractmethod
    def read(self) -> Optional[Data]:
        """Return the stored data, or None when nothing was stored yet."""

    @abstractmethod
    def write(self, data: Data) -> None:
        """Replace the stored data."""

    def close(self) -> None:
        """Release resources; the default does nothing."""

    def __enter__(self) -> "Storage":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
