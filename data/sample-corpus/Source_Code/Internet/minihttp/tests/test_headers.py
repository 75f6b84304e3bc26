import unittest

from minihttp.exceptions import HeaderError
from minihttp.headers import Headers, is_token, parse_accept, parse_header_value, split_outside_quotes


class TestHeaders(unittest.TestCase):
    def test_case_insensitive_access(self):
        headers = Headers({"Content-Type": "text/html"}, x_request_id="42")
        self.assertEqual(headers["content-type"], "text/html")
        self.assertEqual(headers["X-Request-Id"], "42")
        self.assertIn("CONTENT-TYPE", headers)
        self.assertEqual(headers.get("missing", "d"), "d")

    def test_multi_values(self):
        headers = Headers([("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("Vary", "Accept")])
        self.assertEqual(headers.get_all("SET-COOKIE"), ["a=1", "b=2"])
        self.assertEqual(len(headers), 2)
        self.assertEqual(list(headers), ["Set-Cookie", "Vary"])
        headers["Set-Cookie"] = "c=3"
        self.assertEqual(headers.get_all("set-cookie"), ["c=3"])
        del headers["vary"]
        self.assertNotIn("Vary", headers)
        with self.assertRaises(KeyError):
            del headers["vary"]

    def test_add_validation(self):
        headers = Headers()
        with self.assertRaises(HeaderError):
            headers.add("Bad Name", "x")
        with self.assertRaises(HeaderError):
            headers.add("X-Injected", "a\r\nSet-Cookie: evil=1")
        headers.add("X-Count", 3)
        self.assertEqual(headers["x-count"], "3")

    def test_parse_block(self):
        headers = Headers.parse("Host: example.com\r\nX-Long: part one\r\n  part two\r\nAccept: */*\r\n")
        self.assertEqual(headers["host"], "example.com")
        self.assertEqual(headers["x-long"], "part one part two")
        self.assertEqual(headers.to_lines(), "Host: example.com\r\nX-Long: part one part two\r\nAccept: */*\r\n")

    def test_parse_errors(self):
        with self.assertRaises(HeaderError):
            Headers.parse(" leading continuation")
        with self.assertRaises(HeaderError):
            Headers.parse("no colon here")


class TestHeaderValues(unittest.TestCase):
    def test_is_token(self):
        self.assertTrue(is_token("X-Custom_1"))
        self.assertFalse(is_token(""))
        self.assertFalse(is_token("a:b"))

    def test_split_outside_quotes(self):
        self.assertEqual(split_outside_quotes('a;b="x;y";c', ";"), ["a", 'b="x;y"', "c"])

    def test_parse_header_value(self):
        self.assertEqual(parse_header_value("text/html; charset=UTF-8"), ("text/html", {"charset": "UTF-8"}))
        self.assertEqual(
            parse_header_value('attachment; filename="a; \\"b\\".txt"; Size=10'),
            ("attachment", {"filename": 'a; "b".txt', "size": "10"}),
        )
        self.assertEqual(parse_header_value(""), ("", {}))

    def test_parse_accept(self):
        self.assertEqual(
            parse_accept("text/html;q=0.8, application/json, */*;q=0.1, text/plain;q=0.8"),
            [("application/json", 1.0), ("text/html", 0.8), ("text/plain", 0.8), ("*/*", 0.1)],
        )
        self.assertEqual(parse_accept("a/b;q=oops, "), [("a/b", 0.0)])


if __name__ == "__main__":
    unittest.main()
