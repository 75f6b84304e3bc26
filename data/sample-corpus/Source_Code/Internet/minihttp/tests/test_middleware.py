import asyncio
import re
import unittest

from minihttp.app import App
from minihttp.message.request import Request
from minihttp.middleware import CORSMiddleware, require_header, timing


async def ok_endpoint(request):
    from minihttp.message.response import Response

    return Response("ok")


class TestTiming(unittest.TestCase):
    def test_header(self):
        response = asyncio.run(timing("X-T")(Request("GET", "/"), ok_endpoint))
        self.assertRegex(response.headers["X-T"], re.compile(r"^\d+\.\dms$"))


class TestCORSMiddleware(unittest.TestCase):
    def setUp(self):
        self.cors = CORSMiddleware(allow_origins=["https://a.example"], allow_methods=["GET"], max_age=60)

    def call(self, method, headers):
        return asyncio.run(self.cors(Request(method, "/", headers), ok_endpoint))

    def test_is_allowed(self):
        self.assertTrue(self.cors.is_allowed("https://a.example"))
        self.assertFalse(self.cors.is_allowed("https://b.example"))
        self.assertTrue(CORSMiddleware().is_allowed("https://anything"))

    def test_no_origin_passes_through(self):
        response = self.call("GET", {})
        self.assertEqual(response.body, b"ok")
        self.assertNotIn("Access-Control-Allow-Origin", response.headers)

    def test_allowed_origin(self):
        response = self.call("GET", {"Origin": "https://a.example"})
        self.assertEqual(response.headers["Access-Control-Allow-Origin"], "https://a.example")
        wildcard = asyncio.run(CORSMiddleware()(Request("GET", "/", {"Origin": "https://z"}), ok_endpoint))
        self.assertEqual(wildcard.headers["Access-Control-Allow-Origin"], "*")

    def test_rejected_origin(self):
        self.assertEqual(self.call("GET", {"Origin": "https://evil.example"}).status, 403)

    def test_preflight(self):
        response = self.call("OPTIONS", {"Origin": "https://a.example", "Access-Control-Request-Method": "GET"})
        self.assertEqual(response.status, 204)
        self.assertEqual(response.headers["Access-Control-Allow-Methods"], "GET")
        self.assertEqual(response.headers["Access-Control-Max-Age"], "60")


class TestRequireHeader(unittest.TestCase):
    def test_guarded_handler(self):
        app = App()

        @app.route("/secret")
        @require_header("Authorization")
        def secret(request):
            return "granted"

        self.assertEqual(secret.__name__, "secret")
        denied = asyncio.run(app.handle(Request("GET", "/secret")))
        self.assertEqual((denied.status, denied.body), (401, b"missing header Authorization"))
        granted = asyncio.run(app.handle(Request("GET", "/secret", {"Authorization": "Bearer t"})))
        self.assertEqual(granted.body, b"granted")


if __name__ == "__main__":
    unittest.main()
