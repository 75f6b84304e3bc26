import unittest

from confkit.errors import SourceError
from confkit.sources import load_env, parse_dotenv, parse_ini, parse_overrides
from confkit.sources.argv import parse_value
from confkit.sources.ini import strip_inline_comment, unquote_value

INI = """
# global settings
[DEFAULT]
timeout = 30

[server]
Host = example.com   ; the public name
port: 8080
motd = first line
  second line
quoted = "a # not a comment"

[client]
timeout = 5
"""


class TestIni(unittest.TestCase):
    def test_parse_ini(self):
        parsed = parse_ini(INI)
        self.assertEqual(
            parsed["server"],
            {"timeout": "30", "host": "example.com", "port": "8080", "motd": "first line\nsecond line", "quoted": "a # not a comment"},
        )
        self.assertEqual(parsed["client"], {"timeout": "5"})
        self.assertNotIn("DEFAULT", parsed)

    def test_parse_ini_errors(self):
        for text in ("key = value", "[unterminated", "[ ]", "[s]\njust words"):
            with self.subTest(text=text):
                with self.assertRaises(SourceError) as ctx:
                    parse_ini(text, source="app.ini")
                self.assertTrue(str(ctx.exception).startswith("app.ini:"))

    def test_helpers(self):
        self.assertEqual(strip_inline_comment("value ; note"), "value")
        self.assertEqual(strip_inline_comment("a#b"), "a#b")
        self.assertEqual(strip_inline_comment("'x ; y' # z"), "'x ; y'")
        self.assertEqual(unquote_value("'q'"), "q")
        self.assertEqual(unquote_value("'q\""), "'q\"")


class TestEnv(unittest.TestCase):
    def test_load_env(self):
        environ = {"APP_DEBUG": "1", "app_db__host": "h", "APP_DB__PORT": "5432", "OTHER": "x", "APP_": "empty"}
        self.assertEqual(load_env("APP_", environ), {"debug": "1", "db": {"host": "h", "port": "5432"}})

    def test_load_env_conflict(self):
        with self.assertRaises(SourceError):
            load_env("APP_", {"APP_DB": "x", "APP_DB__HOST": "h"})

    def test_parse_dotenv(self):
        text = 'export A=1\nB = "two\\nlines"\nC=\'single # kept\'\nD=plain # comment\n\n# skip\n'
        self.assertEqual(parse_dotenv(text), {"A": "1", "B": "two\nlines", "C": "single # kept", "D": "plain"})
        with self.assertRaises(SourceError):
            parse_dotenv("not a pair")


class TestOverrides(unittest.TestCase):
    def test_parse_overrides(self):
        self.assertEqual(
            parse_overrides(["db.port=5432", "debug=true", "name=demo", "tags=[1, 2]", "empty="]),
            {"db": {"port": 5432}, "debug": True, "name": "demo", "tags": [1, 2], "empty": ""},
        )

    def test_parse_overrides_errors(self):
        with self.assertRaises(SourceError):
            parse_overrides(["novalue"])
        with self.assertRaises(SourceError):
            parse_overrides(["=1"])

    def test_parse_value(self):
        self.assertIsNone(parse_value("null"))
        self.assertEqual(parse_value("1.5"), 1.5)
        self.assertEqual(parse_value("hello world"), "hello world")


if __name__ == "__main__":
    unittest.main()
