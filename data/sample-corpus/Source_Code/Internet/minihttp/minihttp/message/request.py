"""HTTP requests and the parsing of raw HTTP/1.1 requests."""

import json
from typing import Any, Dict, List, Optional

from minihttp.constants import CRLF, HTTP_METHODS, SAFE_METHODS
from minihttp.cookies import parse_cookie
from minihttp.exceptions import HTTPError
from minihttp.headers import Headers, parse_header_value
from minihttp.url.parse import URL, parse_url
from minihttp.url.query import parse_qs


class Request:
    """An HTTP request."""

    def __init__(self, method: str, url, headers=None, body: bytes = b""):
        self.method = method.upper()
        self.url: URL = parse_url(url) if isinstance(url, str) else url
        self.headers = headers if isinstance(headers, Headers) else Headers(headers or {})
        self.body = body
        self.path_params: Dict[str, Any] = {}
        self._query: Optional[Dict[str, List[str]]] = None

    @property
    def path(self) -> str:
        """The request path, '/' when the URL has none."""
        return self.url.path or "/"

    @property
    def query(self) -> Dict[str, List[str]]:
        """The parsed query string, computed on first access."""
        if self._query is None:
            self._query = parse_qs(self.url.query)
        return self._query

    @property
    def cookies(self) -> Dict[str, str]:
        """The cookies sent with the request."""
        return parse_cookie(self.headers.get("Cookie", ""))

    @property
    def is_safe(self) -> bool:
        """Whether the method is safe (GET, HEAD, OPTIONS)."""
        return self.method in SAFE_METHODS

    def json(self) -> Any:
        """Decode the body as JSON, honouring the charset of the Content-Type header."""
        media_type, params = parse_header_value(self.headers.get("Content-Type", ""))
        if media_type != "application/json":
            raise HTTPError(415, f"expected application/json, got {media_type or 'no content type'}")
        charset = params.get("charset", "utf-8")
        try:
            return json.loads(self.body.decode(charset))
        except (LookupError, UnicodeDecodeError, ValueError) as exc:
            raise HTTPError(400, f"invalid JSON body: {exc}") from exc

    @classmethod
    def from_bytes(cls, raw: bytes) -> "Request":
        """Parse a raw HTTP/1.1 request (head, blank line, body)."""
        head, sep, body = raw.partition(b"\r\n\r\n")
        if not sep:
            raise HTTPError(400, "incomplete request head")
        lines = head.decode("latin-1").split(CRLF)
        parts = lines[0].split(" ")
        if len(parts) != 3:
            raise HTTPError(400, "malformed request line")
        method, target, version = parts
        if method not in HTTP_METHODS:
            raise HTTPError(501, f"unsupported method {method}")
        if not version.startswith("HTTP/1."):
            raise HTTPError(505)
        headers = Headers.parse(CRLF.join(lines[1:]))
        try:
            length = int(headers.get("Content-Length", len(body)))
        except ValueError:
            raise HTTPError(400, "invalid Content-Length") from None
        host = headers.get("Host", "")
        if "://" not in target and host:
            target = f"http://{host}{target}"
        return cls(method, parse_url(target), headers, body[:length])

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.url}>"
