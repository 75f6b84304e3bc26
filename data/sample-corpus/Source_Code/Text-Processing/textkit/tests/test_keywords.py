import math
import unittest

from textkit.analysis.keywords import KeywordExtractor


class TestKeywordExtractor(unittest.TestCase):
    def setUp(self):
        self.extractor = KeywordExtractor(["a fox ran home", "a dog sat down", "the cat slept"])

    def test_idf(self):
        self.assertEqual(self.extractor.document_count, 3)
        self.assertAlmostEqual(self.extractor.idf("fox"), math.log(4 / 2) + 1.0)
        self.assertAlmostEqual(self.extractor.idf("unknown"), math.log(4 / 1) + 1.0)

    def test_extract_ranks_by_tfidf(self):
        self.assertEqual(self.extractor.extract("fox fox dog cat cat cat", top_n=3), ["cat", "fox", "dog"])

    def test_extract_prefers_rare_terms(self):
        self.assertEqual(self.extractor.extract("fox zebra", top_n=1), ["zebra"])

    def test_extract_with_stemming(self):
        extractor = KeywordExtractor(["running dogs"], stem=True)
        self.assertEqual(extractor._terms("Running dogs"), ["run", "dog"])
        self.assertEqual(extractor.extract("runs running", top_n=1), ["run"])


if __name__ == "__main__":
    unittest.main()
