"""Compatibility helpers for the Python versions that confkit supports (3.7 and later)."""

import sys

PY39 = sys.version_info >= (3, 9)

if sys.version_info >= (3, 9):

    def removeprefix(text: str, prefix: str, *, case_sensitive: bool = True) -> str:
        """Return the text without the prefix when it starts with it."""
        if case_sensitive:
            return text.removeprefix(prefix)
        if text.lower().startswith(prefix.lower()):
            return text[len(prefix):]
        return text

    def removesuffix(text: str, suffix: str, *, case_sensitive: bool = True) -> str:
        """Return the text without the suffix when it ends with it."""
        if case_sensitive:
            return text.removesuffix(suffix)
        if suffix and text.lower().endswith(suffix.lower()):
            return text[:-len(suffix)]
        return text

else:

    def removeprefix(text, prefix, *, case_sensitive=True):
        matches = text.startswith(prefix) if case_sensitive else text.lower().startswith(prefix.lower())
        return text[len(prefix):] if prefix and matches else text

    def removesuffix(text, suffix, *, case_sensitive=True):
        matches = text.endswith(suffix) if case_sensitive else text.lower().endswith(suffix.lower())
        return text[:-len(suffix)] if suffix and matches else text
