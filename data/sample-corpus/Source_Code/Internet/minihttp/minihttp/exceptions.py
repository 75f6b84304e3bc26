"""Exceptions raised by minihttp."""

from typing import Dict, Iterable, Optional

from .constants import STATUS_REASONS


class InvalidURL(ValueError):
    """Raised when a URL cannot be parsed."""


class HeaderError(ValueError):
    """Raised for malformed header names, values or header blocks."""


class HTTPError(Exception):
    """An error that maps to an HTTP status code."""

    def __init__(self, status: int, message: Optional[str] = None, headers: Optional[Dict[str, str]] = None):
        self.status = status
        self.message = message or STATUS_REASONS.get(status, "Error")
        self.headers = dict(headers or {})
        super().__init__(f"{status} {self.message}")


class NotFound(HTTPError):
    """No route matches the requested path."""

    def __init__(self, path: str = ""):
        super().__init__(404, f"no route for {path}" if path else None)


class MethodNotAllowed(HTTPError):
    """A route matches the path but not the method."""

    def __init__(self, allowed: Iterable[str]):
        self.allowed = sorted(allowed)
        super().__init__(405, headers={"Allow": ", ".join(self.allowed)})
