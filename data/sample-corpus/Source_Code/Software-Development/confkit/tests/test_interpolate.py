import unittest

from confkit.errors import InterpolationError
from confkit.interpolate import interpolate, interpolate_value


class TestInterpolateValue(unittest.TestCase):
    def test_references(self):
        lookup = {"host": "db.local", "port": 5432, "url": "${host}:${port}"}
        self.assertEqual(interpolate_value("postgres://${url}/app", lookup, environ={}), "postgres://db.local:5432/app")

    def test_environment_and_defaults(self):
        environ = {"USER": "ada"}
        self.assertEqual(interpolate_value("${env.USER}-${env.MISSING:-anon}", {}, environ=environ), "ada-anon")
        self.assertEqual(interpolate_value("${missing:-}", {}, environ={}), "")

    def test_errors(self):
        with self.assertRaises(InterpolationError):
            interpolate_value("${nope}", {}, environ={})
        with self.assertRaises(InterpolationError):
            interpolate_value("${a}", {"a": "${b}", "b": "${a}"}, environ={})


class TestInterpolate(unittest.TestCase):
    def test_nested_config(self):
        config = {"name": "demo", "paths": {"root": "/srv/${name}", "logs": "${paths.root}/logs"}, "workers": 4}
        self.assertEqual(
            interpolate(config, environ={}),
            {"name": "demo", "paths": {"root": "/srv/demo", "logs": "/srv/demo/logs"}, "workers": 4},
        )


if __name__ == "__main__":
    unittest.main()
