"""Composable query conditions, such as (where("age") >= 18) & (where("city") == "Oslo")."""

import re
from typing import Any, Callable, Hashable, Iterable, Mapping, Optional, Tuple

from .document import MISSING, get_path
from .errors import QueryError
from .utils import freeze


class Condition:
    """A predicate over documents, combinable with &, | and ~."""

    def __init__(
        self,
        test: Callable[[Mapping], bool],
        description: str,
        hashval: Optional[Hashable] = None,
        equality: Optional[Tuple[Tuple[str, ...], Any]] = None,
    ):
        self._test = test
        self.description = description
        self._hash = hashval
        self.equality_key = equality

    def __call__(self, document: Mapping) -> bool:
        try:
            return bool(self._test(document))
        except TypeError:
            return False

    @property
    def is_cacheable(self) -> bool:
        """Whether results of this condition can be cached (it has a structural hash)."""
        return self._hash is not None

    def _combine(self, other: "Condition", symbol: str, test: Callable[[Mapping], bool]) -> "Condition":
        hashval = None
        if self.is_cacheable and other.is_cacheable:
            hashval = (symbol, frozenset([self._hash, other._hash]))
        return Condition(test, f"({self.description} {symbol} {other.description})", hashval)

    def __and__(self, other: "Condition") -> "Condition":
        return self._combine(other, "&", lambda doc: self(doc) and other(doc))

    def __or__(self, other: "Condition") -> "Condition":
        return self._combine(other, "|", lambda doc: self(doc) or other(doc))

    def __invert__(self) -> "Condition":
        hashval = ("~", self._hash) if self.is_cacheable else None
        return Condition(lambda doc: not self(doc), f"~{self.description}", hashval)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Condition) and self.is_cacheable and self._hash == other._hash

    def __hash__(self) -> int:
        return hash(self._hash) if self.is_cacheable else id(self)

    def __repr__(self) -> str:
        return f"Condition({self.description})"


class Field:
    """A reference to a possibly nested document field."""

    def __init__(self, *path: str):
        if not path:
            raise QueryError("a field needs at least one key")
        self.path = tuple(path)

    def __getattr__(self, name: str) -> "Field":
        if name.startswith("_"):
            raise AttributeError(name)
        return Field(*self.path, name)

    def _build(self, operator: str, test: Callable[[Any], bool], argument: Any = None) -> Condition:
        """Make a condition applying test to the field value; documents without the field never match."""
        path = self.path

        def run(document: Mapping) -> bool:
            value = get_path(document, path, MISSING)
            if value is MISSING:
                return False
            return test(value)

        equality = (path, argument) if operator == "==" else None
        return Condition(run, f"{'.'.join(path)} {operator} {argument!r}", (path, operator, freeze(argument)), equality)

    def __eq__(self, other: Any) -> Condition:  # type: ignore[override]
        return self._build("==", lambda value: value == other, other)

    def __ne__(self, other: Any) -> Condition:  # type: ignore[override]
        return self._build("!=", lambda value: value != other, other)

    def __lt__(self, other: Any) -> Condition:
        return self._build("<", lambda value: value < other, other)

    def __le__(self, other: Any) -> Condition:
        return self._build("<=", lambda value: value <= other, other)

    def __gt__(self, other: Any) -> Condition:
        return self._build(">", lambda value: value > other, other)

    def __ge__(self, other: Any) -> Condition:
        return self._build(">=", lambda value: value >= other, other)

    __hash__ = None

    def exists(self) -> Condition:
        """Condition: the field is present."""
        return self._build("exists", lambda value: True)

    def one_of(self, values: Iterable[Any]) -> Condition:
        """Condition: the field value is one of the values."""
        options = list(values)
        return self._build("in", lambda value: value in options, tuple(options))

    def matches(self, pattern: str, flags: int = 0) -> Condition:
        """Condition: the field is a string that fully matches the regular expression."""
        regex = re.compile(pattern, flags)
        return self._build("matches", lambda value: isinstance(value, str) and regex.fullmatch(value) is not None, (pattern, flags))

    def any(self, values: Iterable[Any]) -> Condition:
        """Condition: the field is a list that shares at least one item with the values."""
        wanted = list(values)
        return self._build("any", lambda value: isinstance(value, list) and any(item in wanted for item in value), tuple(wanted))

    def test(self, func: Callable[..., bool], *args: Any) -> Condition:
        """Condition: func(value, *args) is true."""
        return self._build(f"test:{func.__name__}", lambda value: func(value, *args), (func, args))


def where(key: str) -> Field:
    """Start a query on a field; a dotted key addresses a nested field."""
    return Field(*key.split("."))
