import unittest

from minihttp.exceptions import HTTPError
from minihttp.message.request import Request

RAW = (
    b"POST /items/?page=2&tag=a&tag=b HTTP/1.1\r\n"
    b"Host: Example.com\r\n"
    b"Content-Type: application/json; charset=utf-8\r\n"
    b"Cookie: session=xyz\r\n"
    b"Content-Length: 13\r\n"
    b"\r\n"
    b'{"name": "x"}trailing'
)


class TestRequest(unittest.TestCase):
    def test_properties(self):
        request = Request("get", "http://example.com?x=1", {"Cookie": "a=1; b=2"})
        self.assertEqual(request.method, "GET")
        self.assertEqual(request.path, "/")
        self.assertEqual(request.query, {"x": ["1"]})
        self.assertEqual(request.cookies, {"a": "1", "b": "2"})
        self.assertTrue(request.is_safe)
        self.assertEqual(repr(request), "<Request GET http://example.com?x=1>")

    def test_json(self):
        request = Request("POST", "/", {"Content-Type": "application/json"}, b'{"a": [1, 2]}')
        self.assertEqual(request.json(), {"a": [1, 2]})

    def test_json_errors(self):
        with self.assertRaises(HTTPError) as ctx:
            Request("POST", "/", {"Content-Type": "text/plain"}, b"{}").json()
        self.assertEqual(ctx.exception.status, 415)
        with self.assertRaises(HTTPError) as ctx:
            Request("POST", "/", {"Content-Type": "application/json"}, b"{nope").json()
        self.assertEqual(ctx.exception.status, 400)
        with self.assertRaises(HTTPError):
            Request("POST", "/", {"Content-Type": "application/json; charset=bogus"}, b"{}").json()


class TestFromBytes(unittest.TestCase):
    def test_parse_full_request(self):
        request = Request.from_bytes(RAW)
        self.assertEqual(request.method, "POST")
        self.assertEqual(request.url.host, "example.com")
        self.assertEqual(request.path, "/items/")
        self.assertEqual(request.query["tag"], ["a", "b"])
        self.assertEqual(request.body, b'{"name": "x"}')
        self.assertEqual(request.json(), {"name": "x"})
        self.assertEqual(request.cookies["session"], "xyz")

    def test_absolute_target_without_host(self):
        request = Request.from_bytes(b"GET http://other.org/p HTTP/1.0\r\n\r\n")
        self.assertEqual(request.url.host, "other.org")
        self.assertEqual(Request.from_bytes(b"GET /p HTTP/1.1\r\n\r\n").url.host, "")

    def test_errors(self):
        cases = {
            b"GET / HTTP/1.1\r\n": 400,
            b"GET /\r\n\r\n": 400,
            b"BREW / HTTP/1.1\r\n\r\n": 501,
            b"GET / HTTP/2\r\n\r\n": 505,
            b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n": 400,
        }
        for raw, status in cases.items():
            with self.subTest(raw=raw):
                with self.assertRaises(HTTPError) as ctx:
                    Request.from_bytes(raw)
                self.assertEqual(ctx.exception.status, status)


if __name__ == "__main__":
    unittest.main()
