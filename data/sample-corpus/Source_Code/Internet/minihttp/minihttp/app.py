"""A small asynchronous application that dispatches requests to routes through middleware."""

import asyncio
import functools
import inspect
import logging
from typing import Awaitable, Callable, Iterable, List

from minihttp.exceptions import HTTPError
from minihttp.message.request import Request
from minihttp.message.response import Response, error_response, json_response
from minihttp.routing import Router

logger = logging.getLogger(__name__)

Middleware = Callable[..., Awaitable[Response]]


class App:
    """An application: a router plus a middleware chain."""

    def __init__(self, *, debug: bool = False):
        self.router = Router()
        self.middleware: List[Middleware] = []
        self.debug = debug

    def route(self, pattern: str, **kwargs):
        """Decorator registering a handler; see Router.route."""
        return self.router.route(pattern, **kwargs)

    def use(self, middleware: Middleware) -> Middleware:
        """Register a middleware, an async callable taking (request, call_next)."""
        self.middleware.append(middleware)
        return middleware

    @staticmethod
    async def call_handler(handler: Callable, request: Request) -> Response:
        """Call a sync or async handler and turn what it returns into a Response."""
        result = handler(request, **request.path_params)
        if inspect.isawaitable(result):
            result = await result
        if isinstance(result, Response):
            return result
        if isinstance(result, (dict, list)):
            return json_response(result)
        if isinstance(result, (str, bytes)):
            return Response(result)
        if result is None:
            return Response(b"", 204)
        raise TypeError(f"handler returned an unsupported {type(result).__name__}")

    async def dispatch(self, request: Request) -> Response:
        """Resolve the route of the request and call its handler."""
        route, params = self.router.resolve(request.method, request.path)
        request.path_params = params
        return await self.call_handler(route.handler, request)

    async def handle(self, request: Request) -> Response:
        """Run the request through the middleware chain and its route, turning errors into responses."""
        call = self.dispatch
        for middleware in reversed(self.middleware):
            call = functools.partial(middleware, call_next=call)
        try:
            return await call(request)
        except HTTPError as exc:
            response = error_response(exc.status, exc.message)
            for name, value in exc.headers.items():
                response.headers[name] = value
            return response
        except Exception:
            if self.debug:
                raise
            logger.exception("unhandled error in %s %s", request.method, request.path)
            return error_response(500)

    async def handle_raw(self, raw: bytes) -> bytes:
        """Parse raw request bytes, handle the request and serialize the response."""
        try:
            request = Request.from_bytes(raw)
        except HTTPError as exc:
            return error_response(exc.status, exc.message).to_bytes()
        response = await self.handle(request)
        return response.to_bytes()

    async def handle_many(self, raws: Iterable[bytes], *, limit: int = 10) -> List[bytes]:
        """Handle several raw requests concurrently, at most limit at a time."""
        semaphore = asyncio.Semaphore(limit)

        async def worker(raw: bytes) -> bytes:
            async with semaphore:
                return await self.handle_raw(raw)

        return list(await asyncio.gather(*(worker(raw) for raw in raws)))
