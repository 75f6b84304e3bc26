"""Cookie request-header parsing and Set-Cookie formatting."""

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Dict, Optional

from minihttp.url.parse import quote, unquote

SAMESITE_VALUES = ("Strict", "Lax", "None")

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def parse_cookie(header: str) -> Dict[str, str]:
    """Parse a Cookie request header into a dict; the first occurrence of a name wins."""
    cookies: Dict[str, str] = {}
    for chunk in header.split(";"):
        name, sep, value = chunk.strip().partition("=")
        if not sep or not name:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        cookies.setdefault(name.strip(), unquote(value))
    return cookies


def format_http_date(moment: datetime) -> str:
    """Format a datetime (naive values are taken as UTC) as an IMF-fixdate."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return (
        f"{DAY_NAMES[moment.weekday()]}, {moment.day:02d} {MONTH_NAMES[moment.month - 1]} "
        f"{moment.year:04d} {moment.hour:02d}:{moment.minute:02d}:{moment.second:02d} GMT"
    )


@dataclass
class Cookie:
    """A cookie to send with a Set-Cookie header."""

    name: str
    value: str = ""
    path: Optional[str] = "/"
    domain: Optional[str] = None
    max_age: Optional[int] = None
    expires: Optional[datetime] = None
    secure: bool = False
    http_only: bool = False
    same_site: Optional[str] = "Lax"

    def __post_init__(self):
        if self.same_site is not None:
            normalized = self.same_site.capitalize()
            if normalized not in SAMESITE_VALUES:
                raise ValueError(f"same_site must be one of {SAMESITE_VALUES}, not {self.same_site!r}")
            self.same_site = normalized

    @property
    def is_session(self) -> bool:
        """Whether the cookie lasts only for the browser session."""
        return self.max_age is None and self.expires is None

    def to_header(self) -> str:
        """Render the cookie as the value of a Set-Cookie header."""
        parts = [f"{self.name}={quote(self.value, safe='')}"]
        if self.path:
            parts.append(f"Path={self.path}")
        if self.domain:
            parts.append(f"Domain={self.domain}")
        if self.max_age is not None:
            parts.append(f"Max-Age={int(self.max_age)}")
        if self.expires is not None:
            parts.append(f"Expires={format_http_date(self.expires)}")
        if self.secure or self.same_site == "None":
            parts.append("Secure")
        if self.http_only:
            parts.append("HttpOnly")
        if self.same_site:
            parts.append(f"SameSite={self.same_site}")
        return "; ".join(parts)
