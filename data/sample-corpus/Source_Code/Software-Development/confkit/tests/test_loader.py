import os
import tempfile
import unittest

from confkit import Config, ValidationError, load_config
from confkit.loader import read_ini_file
from confkit.schema import Boolean, Integer, Schema, Section, String


class Server(Schema):
    host = String("0.0.0.0")
    port = Integer(8000)


class App(Schema):
    name = String()
    debug = Boolean(False)
    server = Section(Server)


class TestConfig(unittest.TestCase):
    def test_access(self):
        config = Config({"a": {"b": {"c": 1}}, "x": 2})
        self.assertEqual(config["x"], 2)
        self.assertEqual(config.a.b.c, 1)
        self.assertIsInstance(config["a"], Config)
        self.assertEqual(config.get_path("a.b.c"), 1)
        self.assertEqual(config.get_path("a.b").to_dict(), {"c": 1})
        self.assertEqual(config.get_path("a.zz", "d"), "d")
        self.assertEqual(config.get_path("x.y"), None)
        self.assertEqual(len(config), 2)
        self.assertEqual(sorted(config), ["a", "x"])
        with self.assertRaises(AttributeError):
            config.missing
        with self.assertRaises(AttributeError):
            config._hidden


class TestLoadConfig(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.ini = os.path.join(self.tmp.name, "app.ini")
        with open(self.ini, "w", encoding="utf-8") as handle:
            handle.write("[server]\nhost = ${name}.example.com\nport = 9000\n")

    def tearDown(self):
        self.tmp.cleanup()

    def test_read_ini_file(self):
        self.assertEqual(read_ini_file(self.ini), {"server": {"host": "${name}.example.com", "port": "9000"}})

    def test_layers_in_order(self):
        config = load_config(
            {"name": "demo", "server": {"port": 1}},
            self.ini,
            env_prefix="DEMO_",
            environ={"DEMO_SERVER__PORT": "9100", "DEMO_DEBUG": "yes"},
            overrides=["server.host=localhost"],
            schema=App,
        )
        self.assertEqual(config.to_dict(), {"name": "demo", "debug": True, "server": {"host": "localhost", "port": 9100}})

    def test_interpolation_and_raw(self):
        config = load_config({"name": "demo"}, self.ini, environ={})
        self.assertEqual(config.server.host, "demo.example.com")
        self.assertEqual(config.server.port, "9000")
        raw = load_config(self.ini, interpolate_values=False)
        self.assertEqual(raw.server.host, "${name}.example.com")

    def test_validation_error(self):
        with self.assertRaises(ValidationError):
            load_config({"server": {"port": "http"}}, schema=App, environ={})


if __name__ == "__main__":
    unittest.main()
