import unittest

from confkit.errors import ValidationError
from confkit.schema import Boolean, Field, Float, Integer, ListField, Schema, Section, String


def even(value):
    if value % 2:
        raise ValueError("must be even")


class Database(Schema):
    host = String("localhost")
    port = Integer(5432, min_value=1, max_value=65535, help="TCP port")


class AppConfig(Schema):
    name = String()
    debug = Boolean(False)
    ratio = Float(0.5)
    workers = Integer(2, validators=[even])
    tags = ListField(String(), default=[])
    level = String("info", choices=["debug", "info", "error"])
    db = Section(Database)


class StrictConfig(Schema):
    strict = True
    name = String()


class TestFields(unittest.TestCase):
    def test_integer(self):
        field = Integer(min_value=0, max_value=10)
        self.assertEqual(field.coerce(" 1_0 "), 10)
        self.assertEqual(field.coerce(3.0), 3)
        for bad in (True, 2.5, "x", None, -1, 11):
            with self.subTest(bad=bad):
                with self.assertRaises((TypeError, ValueError)):
                    field.coerce(bad)

    def test_boolean(self):
        field = Boolean()
        for raw, expected in (("YES", True), (" off ", False), (1, True), (0, False), (False, False)):
            self.assertIs(field.coerce(raw), expected)
        with self.assertRaises(ValueError):
            field.coerce("maybe")
        with self.assertRaises(ValueError):
            field.coerce(2)

    def test_float_string_and_list(self):
        self.assertEqual(Float().coerce("2.5"), 2.5)
        with self.assertRaises(TypeError):
            Float().coerce(True)
        self.assertEqual(String(strip=False).coerce(" x "), " x ")
        self.assertEqual(String().coerce(42), "42")
        with self.assertRaises(TypeError):
            String().coerce(["x"])
        self.assertEqual(ListField(Integer()).coerce("1, 2,,3"), [1, 2, 3])
        self.assertEqual(ListField(separator=";").coerce(("a", "b")), ["a", "b"])
        with self.assertRaises(TypeError):
            ListField().coerce(5)

    def test_clean_reports_field_name(self):
        with self.assertRaises(ValidationError) as ctx:
            AppConfig.fields()["workers"].clean("3")
        self.assertEqual(ctx.exception.errors, {"workers": "must be even"})
        self.assertTrue(Field().required)
        self.assertEqual(Field().clean("anything"), "anything")


class TestSchema(unittest.TestCase):
    def test_validate_defaults_and_coercion(self):
        cleaned = AppConfig.validate({"name": "demo", "debug": "on", "tags": "a,b", "db": {"port": "6543"}})
        self.assertEqual(
            cleaned,
            {
                "name": "demo",
                "debug": True,
                "ratio": 0.5,
                "workers": 2,
                "tags": ["a", "b"],
                "level": "info",
                "db": {"host": "localhost", "port": 6543},
            },
        )
        self.assertEqual(AppConfig.validate({"name": "x"})["db"], {"host": "localhost", "port": 5432})

    def test_validate_collects_errors(self):
        with self.assertRaises(ValidationError) as ctx:
            AppConfig.validate({"level": "loud", "db": {"port": 0}, "extra": 1})
        self.assertEqual(
            ctx.exception.errors,
            {
                "name": "missing required value",
                "level": "'loud' is not one of ['debug', 'error', 'info']",
                "db.port": "0 is less than the minimum 1",
            },
        )

    def test_validate_strict_and_non_mapping(self):
        with self.assertRaises(ValidationError) as ctx:
            StrictConfig.validate({"name": "x", "zzz": 1, "aaa": 2})
        self.assertEqual(ctx.exception.errors, {"aaa": "unknown key", "zzz": "unknown key"})
        with self.assertRaises(ValidationError):
            StrictConfig.validate(["name"])

    def test_describe_and_inheritance(self):
        class Extended(Database):
            user = String(help="login name")

        self.assertEqual(
            Extended.describe(),
            ["host (str, default='localhost')", "port (int, default=5432): TCP port", "user (str, required): login name"],
        )
        self.assertEqual(list(Database.fields()), ["host", "port"])


if __name__ == "__main__":
    unittest.main()
