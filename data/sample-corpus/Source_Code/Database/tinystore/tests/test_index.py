import unittest

from tinystore.index import HashIndex


class TestHashIndex(unittest.TestCase):
    def test_add_and_lookup(self):
        index = HashIndex("address.city")
        index.add(1, {"address": {"city": "Oslo"}})
        index.add(2, {"address": {"city": "Oslo"}})
        index.add(3, {"address": {}})
        self.assertEqual(index.lookup("Oslo"), {1, 2})
        self.assertEqual(index.lookup("Rome"), set())
        self.assertEqual(len(index), 2)

    def test_unhashable_values_and_reindex(self):
        index = HashIndex("tags")
        index.add(1, {"tags": ["a", "b"]})
        self.assertEqual(index.lookup(["a", "b"]), {1})
        index.add(1, {"tags": ["c"]})
        self.assertEqual(index.lookup(["a", "b"]), set())
        self.assertEqual(index.lookup(["c"]), {1})

    def test_remove_and_rebuild(self):
        index = HashIndex("k")
        index.rebuild({1: {"k": 1}, 2: {"k": 1}, 3: {"k": 2}})
        index.remove(1)
        index.remove(99)
        self.assertEqual(index.lookup(1), {2})
        index.remove(2)
        self.assertNotIn(1, index._buckets)
        index.rebuild({})
        self.assertEqual(len(index), 0)


if __name__ == "__main__":
    unittest.main()
