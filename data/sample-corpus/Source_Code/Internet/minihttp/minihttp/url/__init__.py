"""URL parsing, query strings and reference resolution."""

from .join import join_url, remove_dot_segments
from .parse import URL, parse_url, quote, unquote
from .query import encode_qs, parse_qs, parse_qsl

__all__ = [
    "URL",
    "encode_qs",
    "join_url",
    "parse_qs",
    "parse_qsl",
    "parse_url",
    "quote",
    "remove_dot_segments",
    "unquote",
]
