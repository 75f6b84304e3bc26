import unittest

from confkit import compat


class TestRemovePrefix(unittest.TestCase):
    def test_case_sensitive(self):
        self.assertEqual(compat.removeprefix("APP_PORT", "APP_"), "PORT")
        self.assertEqual(compat.removeprefix("app_port", "APP_"), "app_port")
        self.assertEqual(compat.removeprefix("value", ""), "value")

    def test_case_insensitive(self):
        self.assertEqual(compat.removeprefix("app_Port", "APP_", case_sensitive=False), "Port")
        self.assertEqual(compat.removeprefix("other", "APP_", case_sensitive=False), "other")


class TestRemoveSuffix(unittest.TestCase):
    def test_case_sensitive(self):
        self.assertEqual(compat.removesuffix("settings.ini", ".ini"), "settings")
        self.assertEqual(compat.removesuffix("settings.INI", ".ini"), "settings.INI")

    def test_case_insensitive(self):
        self.assertEqual(compat.removesuffix("settings.INI", ".ini", case_sensitive=False), "settings")
        self.assertEqual(compat.removesuffix("settings", "", case_sensitive=False), "settings")
        self.assertTrue(compat.PY39)


if __name__ == "__main__":
    unittest.main()
