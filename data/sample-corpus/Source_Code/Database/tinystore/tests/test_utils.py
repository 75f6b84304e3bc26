import threading
import unittest

from tinystore.utils import LRUCache, freeze, synchronized


class TestFreeze(unittest.TestCase):
    def test_nested(self):
        frozen = freeze({"a": [1, {"b": {2, 3}}]})
        self.assertEqual(frozen, frozenset({("a", (1, frozenset({("b", frozenset({2, 3}))})))}))
        hash(frozen)

    def test_scalars_unchanged(self):
        self.assertEqual(freeze("x"), "x")
        self.assertEqual(freeze((1, [2])), (1, (2,)))


class TestLRUCache(unittest.TestCase):
    def test_eviction_order(self):
        cache = LRUCache(2)
        cache.set("a", 1)
        cache.set("b", 2)
        self.assertEqual(cache.get("a"), 1)
        cache.set("c", 3)
        self.assertIn("a", cache)
        self.assertNotIn("b", cache)
        self.assertEqual(len(cache), 2)

    def test_counters(self):
        cache = LRUCache()
        self.assertIsNone(cache.get("x"))
        self.assertEqual(cache.get("x", "default"), "default")
        cache.set("x", 0)
        self.assertEqual(cache.get("x"), 0)
        self.assertEqual((cache.hits, cache.misses), (1, 2))
        cache.clear()
        self.assertEqual(len(cache), 0)

    def test_invalid_capacity(self):
        with self.assertRaises(ValueError):
            LRUCache(0)


class TestSynchronized(unittest.TestCase):
    def test_holds_lock(self):
        class Counter:
            def __init__(self):
                self._lock = threading.Lock()
                self.value = 0

            @synchronized
            def bump(self, by=1):
                """Increase the counter."""
                assert self._lock.locked()
                self.value += by
                return self.value

        counter = Counter()
        self.assertEqual(counter.bump(by=2), 2)
        self.assertEqual(Counter.bump.__doc__, "Increase the counter.")
        self.assertFalse(counter._lock.locked())


if __name__ == "__main__":
    unittest.main()
