"""Hash indexes over one field, for fast equality lookups."""

from collections import defaultdict
from typing import Any, Dict, Hashable, Mapping, Set

from .document import MISSING, get_path
from .utils import freeze


class HashIndex:
    """Map the frozen values of one field to the ids of the documents holding them."""

    def __init__(self, field: str):
        self.field = field
        self.path = tuple(field.split("."))
        self._buckets: Dict[Hashable, Set[int]] = defaultdict(set)
        self._keys: Dict[int, Hashable] = {}

    def add(self, doc_id: int, document: Mapping) -> None:
        """Index (or re-index) a document under the frozen value of the field, if it has one."""
        self.remove(doc_id)
        value = get_path(document, self.path, MISSING)
        if value is MISSING:
            return
        key = freeze(value)
        self._buckets[key].add(doc_id)
        self._keys[doc_id] = key

    def remove(self, doc_id: int) -> None:
        """Forget a document; unknown ids are ignored."""
        key = self._keys.pop(doc_id, MISSING)
        if key is MISSING:
            return
        bucket = self._buckets[key]
        bucket.discard(doc_id)
        if not bucket:
            del self._buckets[key]

    def lookup(self, value: Any) -> Set[int]:
        """Return the ids of the documents whose field equals the value."""
        return set(self._buckets.get(freeze(value), ()))

    def rebuild(self, documents: Mapping[int, Mapping]) -> None:
        """Drop the index content and index every document again."""
        self._buckets.clear()
        self._keys.clear()
        for doc_id, document in documents.items():
            self.add(doc_id, document)

    def __len__(self) -> int:
        return len(self._keys)
