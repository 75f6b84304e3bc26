import unittest

from minihttp.message.response import Response, error_response, json_response, redirect


class TestResponse(unittest.TestCase):
    def test_text_body(self):
        response = Response("h\u00e9llo")
        self.assertEqual(response.body, "h\u00e9llo".encode("utf-8"))
        self.assertEqual(response.headers["Content-Type"], "text/plain; charset=utf-8")
        self.assertTrue(response.ok)
        self.assertEqual(response.reason, "OK")

    def test_to_bytes(self):
        response = Response(b"abc", 201, {"X-A": "1"})
        self.assertEqual(response.to_bytes(), b"HTTP/1.1 201 Created\r\nX-A: 1\r\nContent-Length: 3\r\n\r\nabc")
        self.assertNotIn("Content-Length", response.headers)

    def test_to_bytes_bodyless(self):
        self.assertEqual(Response(b"ignored", 304).to_bytes(), b"HTTP/1.1 304 Not Modified\r\n\r\n")
        self.assertEqual(Response(status=599).reason, "Unknown")

    def test_set_cookie(self):
        response = Response()
        response.set_cookie("a", "1", http_only=True)
        response.set_cookie("b", "2", max_age=5)
        self.assertEqual(
            response.headers.get_all("Set-Cookie"),
            ["a=1; Path=/; HttpOnly; SameSite=Lax", "b=2; Path=/; Max-Age=5; SameSite=Lax"],
        )


class TestBuilders(unittest.TestCase):
    def test_json_response(self):
        response = json_response({"b": 1, "a": [True, None]}, 201)
        self.assertEqual(response.body, b'{"a":[true,null],"b":1}')
        self.assertEqual(response.headers["content-type"], "application/json")
        self.assertEqual(response.status, 201)
        self.assertEqual(json_response([1], indent=2).body, b"[\n  1\n]")

    def test_redirect(self):
        response = redirect("/login", 303)
        self.assertEqual((response.status, response.headers["Location"]), (303, "/login"))
        with self.assertRaises(ValueError):
            redirect("/x", 200)

    def test_error_response(self):
        self.assertEqual(error_response(404).body, b"Not Found")
        self.assertEqual(error_response(400, "bad thing").body, b"bad thing")
        self.assertFalse(error_response(500).ok)


if __name__ == "__main__":
    unittest.main()
