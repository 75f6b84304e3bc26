import unittest

from confkit.merge import deep_merge, flatten, unflatten


class TestDeepMerge(unittest.TestCase):
    def test_nested_merge_and_replace(self):
        base = {"db": {"host": "localhost", "port": 5432}, "tags": ["a"], "debug": False}
        merged = deep_merge(base, {"db": {"port": 6543}, "tags": ["b"]}, {"debug": True})
        self.assertEqual(merged, {"db": {"host": "localhost", "port": 6543}, "tags": ["b"], "debug": True})
        self.assertEqual(base["db"]["port"], 5432)

    def test_append_lists_and_copies(self):
        extra = {"tags": ["b"], "new": {"x": [1]}}
        merged = deep_merge({"tags": ["a"]}, extra, list_strategy="append")
        self.assertEqual(merged["tags"], ["a", "b"])
        merged["new"]["x"].append(2)
        self.assertEqual(extra["new"]["x"], [1])

    def test_scalar_replaced_by_dict_and_bad_strategy(self):
        self.assertEqual(deep_merge({"a": 1}, {"a": {"b": 2}}), {"a": {"b": 2}})
        with self.assertRaises(ValueError):
            deep_merge({}, {}, list_strategy="zip")


class TestFlatten(unittest.TestCase):
    def test_flatten(self):
        self.assertEqual(flatten({"a": {"b": 1, "c": {"d": 2}}, "e": {}, "f": 3}), {"a.b": 1, "a.c.d": 2, "e": {}, "f": 3})
        self.assertEqual(flatten({"a": {"b": 1}}, separator="__"), {"a__b": 1})

    def test_unflatten(self):
        self.assertEqual(unflatten({"a.b": 1, "a.c.d": 2, "f": 3}), {"a": {"b": 1, "c": {"d": 2}}, "f": 3})
        self.assertEqual(unflatten({"a/b": 1}, separator="/"), {"a": {"b": 1}})

    def test_unflatten_conflicts(self):
        with self.assertRaises(ValueError):
            unflatten({"a": 1, "a.b": 2})
        with self.assertRaises(ValueError):
            unflatten({"a.b.c": 2, "a.b": 1})
        self.assertEqual(unflatten({"a.b": 1, "a": {"c": 2}}), {"a": {"c": 2, "b": 1}})


if __name__ == "__main__":
    unittest.main()
