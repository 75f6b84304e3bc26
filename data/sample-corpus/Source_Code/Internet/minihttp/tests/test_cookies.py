import unittest
from datetime import datetime, timedelta, timezone

from minihttp.cookies import Cookie, format_http_date, parse_cookie


class TestParseCookie(unittest.TestCase):
    def test_pairs(self):
        self.assertEqual(parse_cookie('session=abc; theme="dark"; name=J%C3%BCrgen'), {"session": "abc", "theme": "dark", "name": "J\u00fcrgen"})

    def test_first_wins_and_junk(self):
        self.assertEqual(parse_cookie("a=1; a=2; junk; =x"), {"a": "1"})


class TestFormatHttpDate(unittest.TestCase):
    def test_naive_is_utc(self):
        self.assertEqual(format_http_date(datetime(1994, 11, 6, 8, 49, 37)), "Sun, 06 Nov 1994 08:49:37 GMT")

    def test_aware_is_converted(self):
        moment = datetime(2024, 1, 1, 1, 0, 0, tzinfo=timezone(timedelta(hours=2)))
        self.assertEqual(format_http_date(moment), "Sun, 31 Dec 2023 23:00:00 GMT")


class TestCookie(unittest.TestCase):
    def test_to_header_defaults(self):
        self.assertEqual(Cookie("id", "a b").to_header(), "id=a%20b; Path=/; SameSite=Lax")

    def test_to_header_all_options(self):
        cookie = Cookie(
            "id", "1", path=None, domain="example.com", max_age=60,
            expires=datetime(2030, 5, 17, 12, 0, 0), secure=True, http_only=True, same_site="strict",
        )
        self.assertEqual(
            cookie.to_header(),
            "id=1; Domain=example.com; Max-Age=60; Expires=Fri, 17 May 2030 12:00:00 GMT; Secure; HttpOnly; SameSite=Strict",
        )

    def test_same_site_none_forces_secure(self):
        self.assertEqual(Cookie("x", "y", same_site="none").to_header(), "x=y; Path=/; Secure; SameSite=None")
        with self.assertRaises(ValueError):
            Cookie("x", same_site="sometimes")

    def test_is_session(self):
        self.assertTrue(Cookie("x").is_session)
        self.assertFalse(Cookie("x", max_age=0).is_session)


if __name__ == "__main__":
    unittest.main()
