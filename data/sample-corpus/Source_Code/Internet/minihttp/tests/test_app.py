import asyncio
import unittest

from minihttp.app import App
from minihttp.exceptions import HTTPError
from minihttp.message.request import Request
from minihttp.message.response import Response


def build_app(debug=False):
    app = App(debug=debug)

    @app.route("/hello/<name>")
    def hello(request, name):
        return f"hello {name}"

    @app.route("/data")
    async def data(request):
        await asyncio.sleep(0)
        return {"page": request.query.get("page", ["1"])[0]}

    @app.route("/empty", methods=("POST",))
    def empty(request):
        return None

    @app.route("/teapot")
    def teapot(request):
        raise HTTPError(418, "short and stout", headers={"X-Tea": "earl grey"})

    @app.route("/boom")
    def boom(request):
        raise RuntimeError("boom")

    @app.route("/weird")
    def weird(request):
        return 42

    @app.route("/custom")
    def custom(request):
        return Response(b"raw", 202)

    return app


class TestCallHandler(unittest.TestCase):
    def test_return_types(self):
        request = Request("GET", "/")
        cases = [
            (lambda r: {"a": 1}, 200, b'{"a":1}'),
            (lambda r: "text", 200, b"text"),
            (lambda r: b"bytes", 200, b"bytes"),
            (lambda r: None, 204, b""),
            (lambda r: Response(b"x", 201), 201, b"x"),
        ]
        for func, status, body in cases:
            response = asyncio.run(App.call_handler(func, request))
            self.assertEqual((response.status, response.body), (status, body))

    def test_async_handler_and_path_params(self):
        async def handler(request, item_id):
            return [item_id]

        request = Request("GET", "/")
        request.path_params = {"item_id": 3}
        self.assertEqual(asyncio.run(App.call_handler(handler, request)).body, b"[3]")

    def test_unsupported_type(self):
        with self.assertRaises(TypeError):
            asyncio.run(App.call_handler(lambda r: 1.5, Request("GET", "/")))


class TestHandle(unittest.TestCase):
    def setUp(self):
        self.app = build_app()

    def handle(self, method, url):
        return asyncio.run(self.app.handle(Request(method, url)))

    def test_routes(self):
        self.assertEqual(self.handle("GET", "/hello/bob").body, b"hello bob")
        self.assertEqual(self.handle("GET", "/data?page=3").body, b'{"page":"3"}')
        self.assertEqual(self.handle("POST", "/empty").status, 204)
        self.assertEqual(self.handle("GET", "/custom").status, 202)

    def test_http_errors(self):
        self.assertEqual(self.handle("GET", "/nope").status, 404)
        response = self.handle("GET", "/empty")
        self.assertEqual((response.status, response.headers["Allow"]), (405, "POST"))
        response = self.handle("GET", "/teapot")
        self.assertEqual((response.status, response.body, response.headers["X-Tea"]), (418, b"short and stout", "earl grey"))

    def test_unhandled_errors(self):
        with self.assertLogs("minihttp.app", level="ERROR"):
            self.assertEqual(self.handle("GET", "/boom").status, 500)
            self.assertEqual(self.handle("GET", "/weird").status, 500)
        with self.assertRaises(RuntimeError):
            asyncio.run(build_app(debug=True).handle(Request("GET", "/boom")))

    def test_middleware_order(self):
        calls = []

        def make(tag):
            async def middleware(request, call_next):
                calls.append(f"{tag} in")
                response = await call_next(request)
                calls.append(f"{tag} out")
                response.headers.add("X-Trace", tag)
                return response

            return middleware

        self.app.use(make("outer"))
        self.app.use(make("inner"))
        response = self.handle("GET", "/hello/x")
        self.assertEqual(calls, ["outer in", "inner in", "inner out", "outer out"])
        self.assertEqual(response.headers.get_all("x-trace"), ["inner", "outer"])


class TestHandleRaw(unittest.TestCase):
    def test_round_trip(self):
        app = build_app()
        raw = asyncio.run(app.handle_raw(b"GET /hello/amy HTTP/1.1\r\nHost: h\r\n\r\n"))
        self.assertTrue(raw.startswith(b"HTTP/1.1 200 OK\r\n"))
        self.assertTrue(raw.endswith(b"\r\n\r\nhello amy"))

    def test_bad_request(self):
        raw = asyncio.run(build_app().handle_raw(b"garbage"))
        self.assertTrue(raw.startswith(b"HTTP/1.1 400 Bad Request"))

    def test_handle_many(self):
        app = build_app()
        raws = [f"GET /hello/{i} HTTP/1.1\r\n\r\n".encode() for i in range(5)]
        results = asyncio.run(app.handle_many(raws, limit=2))
        self.assertEqual([r.rsplit(b"\r\n\r\n", 1)[1] for r in results], [f"hello {i}".encode() for i in range(5)])


if __name__ == "__main__":
    unittest.main()
