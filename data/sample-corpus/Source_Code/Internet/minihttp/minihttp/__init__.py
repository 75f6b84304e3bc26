"""minihttp: HTTP messages, URLs, headers and routing without network code."""

from minihttp.headers import Headers
from minihttp.message.request import Request
from minihttp.message.response import Response, json_response
from minihttp.url.parse import URL, parse_url

__version__ = "0.9.0"

__all__ = ["Headers", "Request", "Response", "URL", "json_response", "parse_url"]
