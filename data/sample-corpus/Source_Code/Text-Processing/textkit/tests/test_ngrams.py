import unittest

from textkit.tokenize.ngrams import char_ngrams, everygrams, ngrams, skipgrams


class TestNgrams(unittest.TestCase):
    def test_bigrams_default(self):
        self.assertEqual(ngrams(["a", "b", "c"]), [("a", "b"), ("b", "c")])

    def test_trigrams_and_short_input(self):
        self.assertEqual(ngrams(["a", "b", "c"], 3), [("a", "b", "c")])
        self.assertEqual(ngrams(["a"], 2), [])

    def test_invalid_n(self):
        with self.assertRaises(ValueError):
            ngrams(["a"], 0)

    def test_everygrams(self):
        self.assertEqual(len(everygrams(["a", "b", "c"], 1, 2)), 5)


class TestCharNgrams(unittest.TestCase):
    def test_padded(self):
        self.assertEqual(char_ngrams("ab", 2), [" a", "ab", "b "])

    def test_unpadded(self):
        self.assertEqual(char_ngrams("abcd", 3, pad=""), ["abc", "bcd"])


class TestSkipgrams(unittest.TestCase):
    def test_one_skip_bigrams(self):
        result = list(skipgrams(["a", "b", "c", "d"], 2, 1))
        self.assertEqual(result, [("a", "b"), ("a", "c"), ("b", "c"), ("b", "d"), ("c", "d")])

    def test_zero_skip_equals_ngrams(self):
        tokens = ["w", "x", "y", "z"]
        self.assertEqual(list(skipgrams(tokens, 3, 0)), ngrams(tokens, 3))


if __name__ == "__main__":
    unittest.main()
