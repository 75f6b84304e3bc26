"""A small INI parser: sections, key = value pairs, comments and continuation lines."""

from typing import Dict, Optional, Tuple

from ..errors import SourceError

COMMENT_PREFIXES = ("#", ";")

DEFAULT_SECTION = "DEFAULT"


def strip_inline_comment(value: str) -> str:
    """Remove a trailing ' #' or ' ;' comment from a value, ignoring quoted text."""
    quote = None
    for index, ch in enumerate(value):
        if ch in "\"'":
            if quote is None:
                quote = ch
            elif quote == ch:
                quote = None
        elif ch in "#;" and quote is None and index > 0 and value[index - 1].isspace():
            return value[:index].rstrip()
    return value


def unquote_value(value: str) -> str:
    """Remove one pair of matching single or double quotes around the value."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _split_assignment(line: str) -> Tuple[str, str, str]:
    positions = [pos for pos in (line.find("="), line.find(":")) if pos != -1]
    if not positions:
        return line, "", ""
    pos = min(positions)
    return line[:pos], line[pos], line[pos + 1:]


def parse_ini(text: str, *, source: str = "<string>") -> Dict[str, Dict[str, str]]:
    """Parse INI text into {section: {key: value}}; keys are lower-cased and DEFAULT values are inherited."""
    sections: Dict[str, Dict[str, str]] = {DEFAULT_SECTION: {}}
    current: Optional[str] = None
    last_key: Optional[str] = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(COMMENT_PREFIXES):
            continue
        if raw[0].isspace() and current is not None and last_key is not None:
            sections[current][last_key] += "\n" + line
            continue
        if line.startswith("["):
            if not line.endswith("]") or not line[1:-1].strip():
                raise SourceError(source, lineno, f"bad section header {line!r}")
            current = line[1:-1].strip()
            sections.setdefault(current, {})
            last_key = None
            continue
        if current is None:
            raise SourceError(source, lineno, "key outside of any section")
        key, sep, value = _split_assignment(line)
        if not sep or not key.strip():
            raise SourceError(source, lineno, f"expected 'key = value', got {line!r}")
        last_key = key.strip().lower()
        sections[current][last_key] = unquote_value(strip_inline_comment(value.strip()))
    defaults = sections.pop(DEFAULT_SECTION)
    return {name: {**defaults, **values} for name, values in sections.items()}
