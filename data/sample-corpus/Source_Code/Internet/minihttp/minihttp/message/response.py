"""HTTP responses, their serialization and common response builders."""

import json
from typing import Any, Optional

from ..constants import CRLF, STATUS_REASONS
from ..cookies import Cookie
from ..headers import Headers

REDIRECT_STATUSES = (301, 302, 303, 307, 308)

BODYLESS_STATUSES = (204, 304)


class Response:
    """An HTTP response."""

    def __init__(self, body=b"", status: int = 200, headers=None, *, content_type: Optional[str] = None):
        self.status = status
        self.headers = headers if isinstance(headers, Headers) else Headers(headers or {})
        self.body = body.encode("utf-8") if isinstance(body, str) else bytes(body)
        if content_type is not None:
            self.headers["Content-Type"] = content_type
        elif isinstance(body, str) and "Content-Type" not in self.headers:
            self.headers["Content-Type"] = "text/plain; charset=utf-8"

    @property
    def reason(self) -> str:
        """The reason phrase of the status code."""
        return STATUS_REASONS.get(self.status, "Unknown")

    @property
    def ok(self) -> bool:
        """Whether the status is below 400."""
        return 200 <= self.status < 400

    def set_cookie(self, name: str, value: str, **options) -> Cookie:
        """Add a Set-Cookie header built from the name, the value and cookie options."""
        cookie = Cookie(name, value, **options)
        self.headers.add("Set-Cookie", cookie.to_header())
        return cookie

    def to_bytes(self) -> bytes:
        """Serialize the response as HTTP/1.1 with a Content-Length header."""
        headers = Headers(self.headers.raw_items())
        body = b"" if self.status in BODYLESS_STATUSES else self.body
        if self.status not in BODYLESS_STATUSES:
            headers["Content-Length"] = str(len(body))
        head = f"HTTP/1.1 {self.status} {self.reason}{CRLF}{headers.to_lines()}{CRLF}"
        return head.encode("latin-1") + body

    def __repr__(self) -> str:
        return f"<Response {self.status} {self.reason}>"


def json_response(data: Any, status: int = 200, *, indent: Optional[int] = None) -> Response:
    """Build a JSON response; without indent the encoding is compact and key-sorted."""
    separators = (",", ":") if indent is None else None
    body = json.dumps(data, indent=indent, sort_keys=True, separators=separators)
    return Response(body, status, content_type="application/json")


def redirect(location: str, status: int = 302) -> Response:
    """Build a redirect response to the location."""
    if status not in REDIRECT_STATUSES:
        raise ValueError(f"not a redirect status: {status}")
    return Response(b"", status, {"Location": location})


def error_response(status: int, message: Optional[str] = None) -> Response:
    """Build a plain-text error response; the reason phrase is the default message."""
    return Response(message or STATUS_REASONS.get(status, "Error"), status)
