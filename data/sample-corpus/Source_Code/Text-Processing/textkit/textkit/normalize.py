"""Text normalization: quotes, accents, punctuation, case and whitespace."""

import re
import unicodedata

from .constants import PUNCTUATION

_WHITESPACE_RE = re.compile(r"\s+")

_QUOTE_MAP = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2013": "-",
    "\u2014": "-",
}


def collapse_whitespace(text: str) -> str:
    """Collapse every run of whitespace into one space and strip both ends."""
    return _WHITESPACE_RE.sub(" ", text).strip()


def strip_accents(text: str) -> str:
    """Remove combining accent marks, keeping the base characters."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def strip_punctuation(text: str, keep: str = "") -> str:
    """Remove ASCII punctuation from the text, except the characters in keep."""
    table = {ord(ch): None for ch in PUNCTUATION if ch not in keep}
    return text.translate(table)


def normalize_quotes(text):
    """Replace typographic quotes and dashes with their ASCII equivalents."""
    for fancy, plain in _QUOTE_MAP.items():
        text = text.replace(fancy, plain)
    return text


def normalize(text: str, *, lower: bool = True, accents: bool = True, punctuation: bool = False) -> str:
    """Run the standard normalization pipeline over the text."""
    text = normalize_quotes(text)
    if accents:
        text = strip_accents(text)
    if lower:
        text = text.lower()
    if punctuation:
        text = strip_punctuation(text)
    return collapse_whitespace(text)
