"""Exceptions raised by tinystore."""


class TinyStoreError(Exception):
    """Base class of all tinystore errors."""


class DocumentNotFound(TinyStoreError, KeyError):
    """No document has the requested id."""


class StorageError(TinyStoreError):
    """The storage backend could not read or write the data."""


class QueryError(TinyStoreError):
    """A query was built incorrectly."""


class TransactionError(TinyStoreError):
    """A transaction was used incorrectly."""
