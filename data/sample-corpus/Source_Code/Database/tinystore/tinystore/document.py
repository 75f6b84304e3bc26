"""Documents (dicts that know their id) and nested field access."""

from typing import Any, Mapping, Sequence


class _Missing:
    """Sentinel type for absent values."""

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING = _Missing()

_NO_DEFAULT = object()


class Document(dict):
    """A stored document: a dict with a doc_id attribute."""

    def __init__(self, value: Mapping, doc_id: int):
        super().__init__(value)
        self.doc_id = doc_id

    def copy(self) -> "Document":
        """Return a shallow copy that keeps the id."""
        return Document(dict(self), self.doc_id)

    def __repr__(self) -> str:
        return f"Document(doc_id={self.doc_id}, {dict.__repr__(self)})"


def get_path(document: Any, path: Sequence[Any], default: Any = _NO_DEFAULT) -> Any:
    """Follow a path of keys (and list indexes) into nested values; raise KeyError without a default."""
    value = document
    for key in path:
        if isinstance(value, Mapping) and key in value:
            value = value[key]
        elif isinstance(value, list) and isinstance(key, str) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            if default is _NO_DEFAULT:
                raise KeyError(".".join(str(part) for part in path))
            return default
    return value
