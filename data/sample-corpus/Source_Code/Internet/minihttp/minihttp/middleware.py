"""Reusable asynchronous middleware and handler decorators."""

import functools
import inspect
import time
from typing import Iterable

from .exceptions import HTTPError
from .message.response import Response, error_response

DEFAULT_ALLOWED_METHODS = ("GET", "POST", "PUT", "DELETE")


def timing(header: str = "X-Response-Time"):
    """Return a middleware that reports the handling time in milliseconds in a response header."""

    async def middleware(request, call_next):
        start = time.perf_counter()
        response = await call_next(request)
        response.headers[header] = f"{(time.perf_counter() - start) * 1000:.1f}ms"
        return response

    return middleware


def require_header(name: str, status: int = 401):
    """Decorator for handlers: reject requests that lack the named header."""
    def decorator(handler):
        @functools.wraps(handler)
        async def wrapper(request, *args, **kwargs):
            if name not in request.headers:
                raise HTTPError(status, f"missing header {name}")
            result = handler(request, *args, **kwargs)
            if inspect.isawaitable(result):
                result = await result
            return result

        return wrapper

    return decorator


class CORSMiddleware:
    """Add CORS headers to responses and answer preflight requests."""

    def __init__(self, allow_origins: Iterable[str] = ("*",), allow_methods: Iterable[str] = DEFAULT_ALLOWED_METHODS, max_age: int = 600):
        self.allow_origins = frozenset(allow_origins)
        self.allow_methods = tuple(allow_methods)
        self.max_age = max_age

    def is_allowed(self, origin: str) -> bool:
        """Tell whether requests from the origin are allowed."""
        return "*" in self.allow_origins or origin in self.allow_origins

    async def __call__(self, request, call_next) -> Response:
        """Handle one request: reject unknown origins, answer preflights, decorate other responses."""
        origin = request.headers.get("Origin")
        if origin is None:
            return await call_next(request)
        if not self.is_allowed(origin):
            return error_response(403, "origin not allowed")
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response = Response(b"", 204)
            response.headers["Access-Control-Allow-Methods"] = ", ".join(self.allow_methods)
            response.headers["Access-Control-Max-Age"] = str(self.max_age)
        else:
            response = await call_next(request)
        response.headers["Access-Control-Allow-Origin"] = "*" if "*" in self.allow_origins else origin
        return response
