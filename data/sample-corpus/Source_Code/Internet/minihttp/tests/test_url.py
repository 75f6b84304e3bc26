import unittest

from minihttp.exceptions import InvalidURL
from minihttp.url.parse import URL, parse_url, quote, unquote


class TestQuote(unittest.TestCase):
    def test_quote_reserved_and_unicode(self):
        self.assertEqual(quote("a b/c"), "a%20b/c")
        self.assertEqual(quote("a b/c", safe=""), "a%20b%2Fc")
        self.assertEqual(quote("caf\u00e9"), "caf%C3%A9")

    def test_unquote(self):
        self.assertEqual(unquote("caf%C3%A9%20au%20lait"), "caf\u00e9 au lait")
        self.assertEqual(unquote("100%"), "100%")
        self.assertEqual(unquote("%zz%4"), "%zz%4")


class TestParseUrl(unittest.TestCase):
    def test_full_url(self):
        url = parse_url("HTTPS://user:pw@Example.COM:8443/a/b?x=1&y=2#top")
        self.assertEqual(url.scheme, "https")
        self.assertEqual(url.userinfo, "user:pw")
        self.assertEqual(url.host, "example.com")
        self.assertEqual(url.port, 8443)
        self.assertEqual(url.path, "/a/b")
        self.assertEqual(url.query, "x=1&y=2")
        self.assertEqual(url.fragment, "top")

    def test_relative_and_ipv6(self):
        self.assertEqual(parse_url("/only/path?q").path, "/only/path")
        self.assertFalse(parse_url("/only/path").is_absolute)
        url = parse_url("http://[::1]:8080/")
        self.assertEqual((url.host, url.port), ("[::1]", 8080))

    def test_invalid(self):
        for text in ("http://host:99999/", "http://host:abc/", "http://[::1/", "http://a b/"):
            with self.assertRaises(InvalidURL):
                parse_url(text)


class TestURL(unittest.TestCase):
    def test_effective_port(self):
        self.assertEqual(parse_url("https://example.com/").effective_port, 443)
        self.assertEqual(parse_url("http://example.com:8000/").effective_port, 8000)
        self.assertIsNone(parse_url("ftp://example.com/").effective_port)

    def test_str_round_trip(self):
        for text in ("https://user@example.com:8443/a?b=1#c", "/relative/path?x", "mailto:someone@example.com"):
            self.assertEqual(str(parse_url(text)), text)

    def test_copies_and_origin(self):
        url = parse_url("http://example.com/a?x=1")
        self.assertEqual(str(url.with_path("/b")), "http://example.com/b?x=1")
        self.assertEqual(url.with_query("?y=2").query, "y=2")
        self.assertEqual(url.origin(), ("http", "example.com", 80))
        self.assertEqual(URL(host="h", port=1).netloc, "h:1")


if __name__ == "__main__":
    unittest.main()
