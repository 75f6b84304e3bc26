"""URL parsing into components (a pragmatic subset of RFC 3986)."""

import re
from dataclasses import dataclass, replace
from typing import Optional, Tuple

from ..constants import DEFAULT_PORTS, UNRESERVED
from ..exceptions import InvalidURL

_URL_RE = re.compile(
    r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*):)?"
    r"(?://(?P<authority>[^/?#]*))?"
    r"(?P<path>[^?#]*)"
    r"(?:\?(?P<query>[^#]*))?"
    r"(?:#(?P<fragment>.*))?$",
    re.DOTALL,
)

_HEX = "0123456789abcdefABCDEF"


def quote(text: str, safe: str = "/") -> str:
    """Percent-encode the UTF-8 bytes of the text, except unreserved characters and those in safe."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if byte < 128 and (ch in UNRESERVED or ch in safe):
            out.append(ch)
        else:
            out.append(f"%{byte:02X}")
    return "".join(out)


def unquote(text: str) -> str:
    """Decode the percent-escapes of the text as UTF-8; malformed escapes are kept verbatim."""
    raw = text.encode("utf-8")
    data = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == 0x25 and i + 2 < len(raw) and chr(raw[i + 1]) in _HEX and chr(raw[i + 2]) in _HEX:
            data.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            data.append(raw[i])
            i += 1
    return data.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class URL:
    """The components of a URL."""

    scheme: str = ""
    host: str = ""
    port: Optional[int] = None
    path: str = ""
    query: str = ""
    fragment: str = ""
    userinfo: str = ""

    @property
    def effective_port(self) -> Optional[int]:
        """The explicit port, or else the default port of the scheme."""
        if self.port is not None:
            return self.port
        return DEFAULT_PORTS.get(self.scheme)

    @property
    def is_absolute(self) -> bool:
        """Whether the URL has a scheme."""
        return bool(self.scheme)

    @property
    def netloc(self) -> str:
        """The authority part: userinfo, host and port."""
        netloc = self.host
        if self.userinfo:
            netloc = f"{self.userinfo}@{netloc}"
        if self.port is not None:
            netloc += f":{self.port}"
        return netloc

    def origin(self) -> Tuple[str, str, Optional[int]]:
        """Return the (scheme, host, port) triple used for same-origin checks."""
        return (self.scheme, self.host, self.effective_port)

    def with_path(self, path: str) -> "URL":
        """Return a copy with another path."""
        return replace(self, path=path)

    def with_query(self, query: str) -> "URL":
        """Return a copy with another query string."""
        return replace(self, query=query.lstrip("?"))

    def __str__(self) -> str:
        """Reassemble the URL into a string."""
        parts = []
        if self.scheme:
            parts.append(self.scheme + ":")
        if self.host or self.userinfo or self.port is not None:
            parts.append("//" + self.netloc)
        parts.append(self.path)
        if self.query:
            parts.append("?" + self.query)
        if self.fragment:
            parts.append("#" + self.fragment)
        return "".join(parts)


def _split_authority(authority: str) -> Tuple[str, str, Optional[int]]:
    """Split 'user@host:port' (or a bracketed IPv6 host) into userinfo, host and port."""
    userinfo, _, hostport = authority.rpartition("@")
    if hostport.startswith("["):
        end = hostport.find("]")
        if end == -1:
            raise InvalidURL(f"unterminated IPv6 address in {authority!r}")
        host, rest = hostport[:end + 1], hostport[end + 1:]
        if rest and not rest.startswith(":"):
            raise InvalidURL(f"unexpected text after IPv6 address in {authority!r}")
        port_text = rest[1:]
    else:
        host, _, port_text = hostport.partition(":")
    port = None
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise InvalidURL(f"invalid port: {port_text!r}")
        port = int(port_text)
    return userinfo, host.lower(), port


def parse_url(text: str) -> URL:
    """Parse a URL string into a URL object, lower-casing scheme and host."""
    if any(ch in text for ch in " \r\n"):
        raise InvalidURL(f"URL contains whitespace: {text!r}")
    match = _URL_RE.match(text)
    if match is None:
        raise InvalidURL(text)
    authority = match.group("authority")
    if authority is not None:
        userinfo, host, port = _split_authority(authority)
    else:
        userinfo, host, port = "", "", None
    return URL(
        scheme=(match.group("scheme") or "").lower(),
        host=host,
        port=port,
        path=match.group("path"),
        query=match.group("query") or "",
        fragment=match.group("fragment") or "",
        userinfo=userinfo,
    )
