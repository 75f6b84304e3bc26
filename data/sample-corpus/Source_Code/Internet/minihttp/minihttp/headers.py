"""A case-insensitive, multi-valued collection of HTTP headers, and header value parsers."""

from collections.abc import MutableMapping
from typing import Dict, Iterator, List, Tuple

from .constants import CRLF
from .exceptions import HeaderError

_TOKEN_CHARS = frozenset(
    "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)


def is_token(text: str) -> bool:
    """Tell whether the text is a valid HTTP token (such as a header name)."""
    return bool(text) and all(ch in _TOKEN_CHARS for ch in text)


class Headers(MutableMapping):
    """HTTP headers: names compare case-insensitively and may repeat."""

    def __init__(self, items=None, **kwargs):
        self._items: List[Tuple[str, str]] = []
        if items is not None:
            pairs = items.items() if hasattr(items, "items") else items
            for name, value in pairs:
                self.add(name, value)
        for name, value in kwargs.items():
            self.add(name.replace("_", "-"), value)

    def add(self, name: str, value) -> None:
        """Append a header, keeping the existing values of the same name."""
        value = str(value)
        if not is_token(name):
            raise HeaderError(f"invalid header name: {name!r}")
        if "\r" in value or "\n" in value:
            raise HeaderError(f"header value of {name} contains a line break")
        self._items.append((name, value))

    def get_all(self, name: str) -> List[str]:
        """Return every value of the header, in order."""
        wanted = name.lower()
        return [value for key, value in self._items if key.lower() == wanted]

    def __getitem__(self, name: str) -> str:
        values = self.get_all(name)
        if not values:
            raise KeyError(name)
        return values[0]

    def __setitem__(self, name: str, value) -> None:
        if name in self:
            del self[name]
        self.add(name, value)

    def __delitem__(self, name: str) -> None:
        wanted = name.lower()
        kept = [(key, value) for key, value in self._items if key.lower() != wanted]
        if len(kept) == len(self._items):
            raise KeyError(name)
        self._items = kept

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and any(key.lower() == name.lower() for key, _ in self._items)

    def __iter__(self) -> Iterator[str]:
        seen = set()
        for key, _ in self._items:
            if key.lower() not in seen:
                seen.add(key.lower())
                yield key

    def __len__(self) -> int:
        return len({key.lower() for key, _ in self._items})

    def raw_items(self) -> List[Tuple[str, str]]:
        """Return every (name, value) pair, repeated names included."""
        return list(self._items)

    def to_lines(self) -> str:
        """Serialize the headers as 'Name: value' lines, each ending with CRLF."""
        return "".join(f"{name}: {value}{CRLF}" for name, value in self._items)

    @classmethod
    def parse(cls, text: str) -> "Headers":
        """Parse a header block of 'Name: value' lines, unfolding obsolete continuation lines."""
        headers = cls()
        for line in text.replace(CRLF, "\n").split("\n"):
            if not line:
                continue
            if line[0] in " \t":
                if not headers._items:
                    raise HeaderError("continuation line without a header")
                name, value = headers._items[-1]
                headers._items[-1] = (name, f"{value} {line.strip()}")
                continue
            name, sep, value = line.partition(":")
            if not sep:
                raise HeaderError(f"malformed header line: {line!r}")
            headers.add(name.strip(), value.strip())
        return headers

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"


def split_outside_quotes(text: str, separator: str) -> List[str]:
    """Split the text on the separator, ignoring separators inside double quotes."""
    parts = []
    current = []
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == separator and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return parts


def parse_header_value(value: str) -> Tuple[str, Dict[str, str]]:
    """Split a value such as 'text/html; charset=utf-8' into its main part and parameters."""
    main, *params = split_outside_quotes(value, ";")
    result = {}
    for param in params:
        key, _, val = param.strip().partition("=")
        if not key:
            continue
        val = val.strip()
        if len(val) >= 2 and val[0] == val[-1] == '"':
            val = val[1:-1].replace('\\"', '"')
        result[key.strip().lower()] = val
    return main.strip(), result


def parse_accept(value: str) -> List[Tuple[str, float]]:
    """Parse an Accept header into (media type, quality) pairs, best first."""
    entries = []
    for index, item in enumerate(split_outside_quotes(value, ",")):
        if not item.strip():
            continue
        media, params = parse_header_value(item)
        try:
            quality = float(params.get("q", "1"))
        except ValueError:
            quality = 0.0
        entries.append((media, quality, index))
    entries.sort(key=lambda entry: (-entry[1], entry[2]))
    return [(media, quality) for media, quality, _ in entries]
