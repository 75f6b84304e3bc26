"""The TinyStore database: named tables persisted through a storage backend."""

import threading
from typing import Dict, List, Mapping, Optional

from .errors import TinyStoreError
from .query import Condition
from .storage.base import Storage
from .storage.memory import MemoryStorage
from .table import Table
from .transaction import Transaction
from .utils import synchronized

DEFAULT_TABLE = "_default"


class TinyStore:
    """A set of named tables kept in a storage backend."""

    def __init__(self, storage: Optional[Storage] = None, *, auto_persist: bool = True):
        self.storage = storage if storage is not None else MemoryStorage()
        self.auto_persist = auto_persist
        self._tables: Dict[str, Table] = {}
        self._lock = threading.RLock()
        self._closed = False
        for name, raw in (self.storage.read() or {}).items():
            table = Table(name, self)
            table.load(raw)
            self._tables[name] = table

    def _check_open(self) -> None:
        if self._closed:
            raise TinyStoreError("the database is closed")

    @synchronized
    def persist(self, force: bool = False) -> None:
        """Write every table to the storage when auto_persist is on or force is set."""
        self._check_open()
        if not (self.auto_persist or force):
            return
        self.storage.write({name: table.dump() for name, table in sorted(self._tables.items())})

    @synchronized
    def table(self, name: str = DEFAULT_TABLE) -> Table:
        """Return the table with the name, creating it on first use."""
        self._check_open()
        if name not in self._tables:
            self._tables[name] = Table(name, self)
        return self._tables[name]

    def tables(self) -> List[str]:
        """Return the names of the tables, sorted."""
        return sorted(self._tables)

    @synchronized
    def drop_table(self, name: str) -> bool:
        """Delete a table and persist; return whether it existed."""
        self._check_open()
        if self._tables.pop(name, None) is None:
            return False
        self.persist()
        return True

    def transaction(self, name: str = DEFAULT_TABLE) -> Transaction:
        """Return a transaction over the named table."""
        return Transaction(self.table(name))

    def insert(self, document: Mapping) -> int:
        """Insert a document into the default table."""
        return self.table().insert(document)

    def search(self, condition: Condition):
        """Search the default table."""
        return self.table().search(condition)

    def close(self) -> None:
        """Persist pending changes when auto_persist is off, then close the storage."""
        if self._closed:
            return
        if not self.auto_persist:
            self.persist(force=True)
        self.storage.close()
        self._closed = True

    def __enter__(self) -> "TinyStore":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
