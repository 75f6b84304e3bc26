"""Query string decoding and encoding."""

from typing import Dict, Iterable, List, Mapping, Tuple, Union

from .parse import quote, unquote

Params = Union[Mapping[str, object], Iterable[Tuple[str, object]]]


def parse_qsl(query: str, keep_blank: bool = False) -> List[Tuple[str, str]]:
    """Parse a query string into a list of (name, value) pairs, in order."""
    pairs = []
    for part in query.lstrip("?").replace(";", "&").split("&"):
        if not part:
            continue
        name, _, value = part.partition("=")
        if not value and not keep_blank:
            continue
        pairs.append((unquote(name.replace("+", " ")), unquote(value.replace("+", " "))))
    return pairs


def parse_qs(query: str, keep_blank: bool = False) -> Dict[str, List[str]]:
    """Parse a query string into a dict mapping each name to the list of its values."""
    result: Dict[str, List[str]] = {}
    for name, value in parse_qsl(query, keep_blank):
        result.setdefault(name, []).append(value)
    return result


def encode_qs(params: Params, *, sort: bool = False) -> str:
    """Encode parameters as a query string; list values repeat the name, None values are skipped."""
    items = list(params.items()) if isinstance(params, Mapping) else list(params)
    if sort:
        items.sort(key=lambda item: item[0])
    parts = []
    for name, value in items:
        values = value if isinstance(value, (list, tuple)) else [value]
        for item in values:
            if item is None:
                continue
            if isinstance(item, bool):
                item = "true" if item else "false"
            parts.append(f"{quote(str(name), safe='')}={quote(str(item), safe='')}")
    return "&".join(parts)


def merge_query(query: str, extra: Mapping[str, object]) -> str:
    """Return the query string with the extra parameters replacing same-named ones."""
    pairs = [(name, value) for name, value in parse_qsl(query, keep_blank=True) if name not in extra]
    return encode_qs(pairs + list(extra.items()))
