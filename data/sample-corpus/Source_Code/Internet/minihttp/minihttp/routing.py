"""URL routing with typed path parameters."""

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Pattern, Tuple

from .exceptions import MethodNotAllowed, NotFound
from .url.parse import quote

CONVERTERS = {
    "str": (r"[^/]+", str),
    "int": (r"-?\d+", int),
    "path": (r".+", str),
    "slug": (r"[a-z0-9]+(?:-[a-z0-9]+)*", str),
}

_PARAM_RE = re.compile(r"<(?:(?P<conv>[a-z]+):)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)>")


def compile_pattern(pattern: str) -> Tuple[Pattern, Dict[str, Callable[[str], Any]]]:
    """Compile a route pattern such as '/users/<int:id>' into a regex and its converters."""
    regex = ["^"]
    converters: Dict[str, Callable[[str], Any]] = {}
    last = 0
    for match in _PARAM_RE.finditer(pattern):
        regex.append(re.escape(pattern[last:match.start()]))
        kind = match.group("conv") or "str"
        if kind not in CONVERTERS:
            raise ValueError(f"unknown converter {kind!r} in {pattern!r}")
        name = match.group("name")
        if name in converters:
            raise ValueError(f"duplicate parameter {name!r} in {pattern!r}")
        part, func = CONVERTERS[kind]
        regex.append(f"(?P<{name}>{part})")
        converters[name] = func
        last = match.end()
    regex.append(re.escape(pattern[last:]))
    regex.append("$")
    return re.compile("".join(regex)), converters


@dataclass
class Route:
    """A pattern bound to a handler and a set of methods."""

    pattern: str
    handler: Callable
    methods: frozenset = frozenset({"GET"})
    name: Optional[str] = None
    regex: Pattern = field(init=False, repr=False)
    converters: Dict[str, Callable[[str], Any]] = field(init=False, repr=False)

    def __post_init__(self):
        self.regex, self.converters = compile_pattern(self.pattern)
        self.methods = frozenset(method.upper() for method in self.methods)
        if self.name is None:
            self.name = self.handler.__name__

    def match(self, path: str) -> Optional[Dict[str, Any]]:
        """Return the converted path parameters when the path matches the route, else None."""
        found = self.regex.match(path)
        if found is None:
            return None
        return {name: self.converters[name](value) for name, value in found.groupdict().items()}


class Router:
    """An ordered list of routes."""

    def __init__(self, prefix: str = ""):
        self.prefix = prefix.rstrip("/")
        self.routes: List[Route] = []

    def add(self, pattern: str, handler: Callable, methods=("GET",), name: Optional[str] = None) -> Route:
        """Register a handler for a pattern and return the new route."""
        route = Route(self.prefix + pattern, handler, frozenset(methods), name)
        self.routes.append(route)
        return route

    def route(self, pattern: str, *, methods=("GET",), name: Optional[str] = None):
        """Decorator that registers the decorated function as the handler of the pattern."""

        def decorator(func):
            self.add(pattern, func, methods, name)
            return func

        return decorator

    def get(self, pattern: str, **kwargs):
        """Shortcut for route(pattern, methods=('GET',))."""
        return self.route(pattern, methods=("GET",), **kwargs)

    def post(self, pattern: str, **kwargs):
        """Shortcut for route(pattern, methods=('POST',))."""
        return self.route(pattern, methods=("POST",), **kwargs)

    def resolve(self, method: str, path: str) -> Tuple[Route, Dict[str, Any]]:
        """Find the route of a method and path; raise NotFound or MethodNotAllowed otherwise."""
        method = method.upper()
        allowed = set()
        for route in self.routes:
            params = route.match(path)
            if params is None:
                continue
            if method in route.methods or (method == "HEAD" and "GET" in route.methods):
                return route, params
            allowed.update(route.methods)
        if allowed:
            raise MethodNotAllowed(allowed)
        raise NotFound(path)

    def url_for(self, name: str, /, **params) -> str:
        """Build the path of the named route, filling in its parameters."""
        for route in self.routes:
            if route.name != name:
                continue

            def fill(match):
                key = match.group("name")
                if key not in params:
                    raise KeyError(f"missing parameter {key!r} for route {name!r}")
                return quote(str(params[key]), safe="")

            return _PARAM_RE.sub(fill, route.pattern)
        raise KeyError(f"no route named {name!r}")
