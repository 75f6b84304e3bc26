"""Tables: documents with integer ids, queries, indexes and a query cache."""

import copy
from typing import Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

from tinystore.document import Document
from tinystore.errors import DocumentNotFound
from tinystore.index import HashIndex
from tinystore.query import Condition
from tinystore.utils import LRUCache

Snapshot = Tuple[Dict[int, dict], int]


class Table:
    """A named collection of documents."""

    def __init__(self, name: str, database=None, *, cache_size: int = 16):
        self.name = name
        self._database = database
        self._docs: Dict[int, dict] = {}
        self._next_id = 1
        self._indexes: Dict[str, HashIndex] = {}
        self._query_cache = LRUCache(cache_size)

    def load(self, raw: Mapping[str, Mapping]) -> None:
        """Replace the contents with serialized data, whose ids are strings."""
        self._docs = {int(doc_id): dict(doc) for doc_id, doc in raw.items()}
        self._next_id = max(self._docs, default=0) + 1
        self._reindex()

    def dump(self) -> Dict[str, dict]:
        """Return the contents in serializable form, ordered by id."""
        return {str(doc_id): doc for doc_id, doc in sorted(self._docs.items())}

    def snapshot(self) -> Snapshot:
        """Return a deep copy of the documents and the id counter."""
        return copy.deepcopy(self._docs), self._next_id

    def restore(self, snapshot: Snapshot) -> None:
        """Put back a snapshot taken with snapshot()."""
        docs, next_id = snapshot
        self._docs = docs
        self._next_id = next_id
        self._reindex()

    def _reindex(self) -> None:
        for index in self._indexes.values():
            index.rebuild(self._docs)
        self._query_cache.clear()

    def _changed(self) -> None:
        """Invalidate cached query results and ask the database to persist."""
        self._query_cache.clear()
        if self._database is not None:
            self._database.persist()

    def _store(self, document: Mapping) -> int:
        if not isinstance(document, Mapping):
            raise TypeError(f"documents must be mappings, not {type(document).__name__}")
        doc_id = self._next_id
        self._next_id += 1
        self._docs[doc_id] = dict(document)
        for index in self._indexes.values():
            index.add(doc_id, self._docs[doc_id])
        return doc_id

    def insert(self, document: Mapping) -> int:
        """Insert a document and return its new id."""
        doc_id = self._store(document)
        self._changed()
        return doc_id

    def insert_many(self, documents: Iterable[Mapping]) -> List[int]:
        """Insert several documents, persisting once, and return their ids."""
        ids = [self._store(document) for document in documents]
        if ids:
            self._changed()
        return ids

    def get(self, doc_id: int) -> Document:
        """Return the document with the id, or raise DocumentNotFound."""
        try:
            return Document(self._docs[doc_id], doc_id)
        except KeyError:
            raise DocumentNotFound(f"table {self.name!r} has no document {doc_id}") from None

    def all(self) -> List[Document]:
        """Return every document in id order."""
        return [Document(doc, doc_id) for doc_id, doc in sorted(self._docs.items())]

    def create_index(self, field: str) -> HashIndex:
        """Create a hash index on a (dotted) field, or return the existing one."""
        if field not in self._indexes:
            index = HashIndex(field)
            index.rebuild(self._docs)
            self._indexes[field] = index
        return self._indexes[field]

    def _candidates(self, condition: Condition) -> List[int]:
        """Return the ids worth testing: an index lookup for an indexed equality, else every id."""
        if condition.equality_key is not None:
            path, value = condition.equality_key
            index = self._indexes.get(".".join(path))
            if index is not None:
                return sorted(index.lookup(value))
        return sorted(self._docs)

    def search(self, condition: Condition) -> List[Document]:
        """Return the documents that match the condition, in id order, caching the matching ids."""
        ids = self._query_cache.get(condition) if condition.is_cacheable else None
        if ids is None:
            ids = [doc_id for doc_id in self._candidates(condition) if condition(self._docs[doc_id])]
            if condition.is_cacheable:
                self._query_cache.set(condition, ids)
        return [Document(self._docs[doc_id], doc_id) for doc_id in ids]

    def find_one(self, condition: Condition) -> Optional[Document]:
        """Return the first matching document, or None."""
        results = self.search(condition)
        return results[0] if results else None

    def count(self, condition: Optional[Condition] = None) -> int:
        """Count every document, or the matching ones."""
        if condition is None:
            return len(self._docs)
        return len(self.search(condition))

    def update(
        self,
        fields: Union[Mapping, Callable[[dict], None]],
        condition: Optional[Condition] = None,
        *,
        doc_ids: Optional[Iterable[int]] = None,
    ) -> List[int]:
        """Update the matching documents (all without a condition) with new fields or a mutating function."""
        if doc_ids is not None:
            targets = list(doc_ids)
            missing = [doc_id for doc_id in targets if doc_id not in self._docs]
            if missing:
                raise DocumentNotFound(f"table {self.name!r} has no documents {missing}")
        elif condition is not None:
            targets = [doc.doc_id for doc in self.search(condition)]
        else:
            targets = sorted(self._docs)
        for doc_id in targets:
            document = self._docs[doc_id]
            if callable(fields):
                fields(document)
            else:
                document.update(fields)
            for index in self._indexes.values():
                index.add(doc_id, document)
        if targets:
            self._changed()
        return targets

    def remove(self, condition: Optional[Condition] = None, *, doc_ids: Optional[Iterable[int]] = None) -> List[int]:
        """Remove the documents that match the condition or have the ids; return the removed ids."""
        if condition is None and doc_ids is None:
            raise ValueError("remove() needs a condition or doc_ids")
        targets = list(doc_ids) if doc_ids is not None else [doc.doc_id for doc in self.search(condition)]
        removed = []
        for doc_id in targets:
            if self._docs.pop(doc_id, None) is None:
                continue
            for index in self._indexes.values():
                index.remove(doc_id)
            removed.append(doc_id)
        if removed:
            self._changed()
        return removed

    def truncate(self) -> None:
        """Remove every document and reset the id counter."""
        self._docs.clear()
        self._next_id = 1
        self._reindex()
        self._changed()

    def __len__(self) -> int:
        return len(self._docs)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.all())

    def __repr__(self) -> str:
        return f"<Table {self.name!r} documents={len(self._docs)}>"
