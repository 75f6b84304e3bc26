import unittest

from textkit.utils import chunked, dedupe, memoize


class TestChunked(unittest.TestCase):
    def test_even_and_remainder(self):
        self.assertEqual(list(chunked(range(5), 2)), [[0, 1], [2, 3], [4]])

    def test_invalid_size(self):
        with self.assertRaises(ValueError):
            list(chunked([1], 0))


class TestMemoize(unittest.TestCase):
    def test_caches_calls(self):
        calls = []

        @memoize
        def square(x):
            """Square a number."""
            calls.append(x)
            return x * x

        self.assertEqual(square(3), 9)
        self.assertEqual(square(3), 9)
        self.assertEqual(calls, [3])
        self.assertEqual(square.__doc__, "Square a number.")

    def test_dedupe(self):
        self.assertEqual(dedupe([3, 1, 3, 2, 1]), [3, 1, 2])


if __name__ == "__main__":
    unittest.main()
