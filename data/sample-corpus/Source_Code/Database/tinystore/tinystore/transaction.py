"""Transactions: batch the changes of one table and roll them back on error."""

from .errors import TransactionError


class Transaction:
    """Context manager that snapshots a table and restores it when the block raises.

    Persistence is suspended inside the block and happens once on success.
    """

    def __init__(self, table):
        self.table = table
        self._snapshot = None
        self._database = None
        self.active = False

    def __enter__(self):
        """Take the snapshot, suspend persistence and return the table."""
        if self.active:
            raise TransactionError("transaction already active")
        self._snapshot = self.table.snapshot()
        self._database = self.table._database
        self.table._database = None
        self.active = True
        return self.table

    def __exit__(self, exc_type, exc, traceback) -> bool:
        """Commit on success, roll back on error; never swallow the exception."""
        self.table._database = self._database
        self.active = False
        if exc_type is not None:
            self.rollback()
        elif self._database is not None:
            self._database.persist()
        return False

    def rollback(self) -> None:
        """Restore the table to the snapshot taken when the transaction began."""
        if self._snapshot is None:
            raise TransactionError("transaction was never started")
        self.table.restore(self._snapshot)
        self._snapshot = None
