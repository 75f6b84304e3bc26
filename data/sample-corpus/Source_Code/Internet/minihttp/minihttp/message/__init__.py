"""HTTP request and response messages."""

from .request import Request
from .response import Response, error_response, json_response, redirect

__all__ = ["Request", "Response", "error_response", "json_response", "redirect"]
