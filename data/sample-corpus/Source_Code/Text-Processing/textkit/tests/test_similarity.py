import math
import unittest

from textkit.analysis.similarity import (
    cosine_similarity,
    fuzzy_ratio,
    jaccard,
    levenshtein,
    trigram_similarity,
)


class TestJaccard(unittest.TestCase):
    def test_overlap(self):
        self.assertAlmostEqual(jaccard("abc", "bcd"), 0.5)

    def test_both_empty(self):
        self.assertEqual(jaccard([], []), 1.0)


class TestCosine(unittest.TestCase):
    def test_identical(self):
        self.assertAlmostEqual(cosine_similarity({"a": 1.0, "b": 2.0}, {"a": 1.0, "b": 2.0}), 1.0)

    def test_orthogonal_and_partial(self):
        self.assertEqual(cosine_similarity({"a": 1.0}, {"b": 1.0}), 0.0)
        self.assertAlmostEqual(cosine_similarity({"a": 1.0, "b": 1.0}, {"a": 1.0}), 1 / math.sqrt(2))

    def test_zero_vector(self):
        self.assertEqual(cosine_similarity({}, {"a": 1.0}), 0.0)


class TestLevenshtein(unittest.TestCase):
    def test_classic(self):
        self.assertEqual(levenshtein("kitten", "sitting"), 3)
        self.assertEqual(levenshtein("flaw", "lawn"), 2)

    def test_empty_and_equal(self):
        self.assertEqual(levenshtein("", "abc"), 3)
        self.assertEqual(levenshtein("same", "same"), 0)

    def test_fuzzy_ratio(self):
        self.assertAlmostEqual(fuzzy_ratio("abcd", "abce"), 0.75)
        self.assertEqual(fuzzy_ratio("", ""), 1.0)


class TestTrigramSimilarity(unittest.TestCase):
    def test_identical_ignores_case(self):
        self.assertEqual(trigram_similarity("Night", "night"), 1.0)

    def test_related_words(self):
        score = trigram_similarity("night", "nacht")
        self.assertGreater(score, 0.0)
        self.assertLess(score, 0.5)
        self.assertGreater(trigram_similarity("colour", "color"), score)


if __name__ == "__main__":
    unittest.main()
