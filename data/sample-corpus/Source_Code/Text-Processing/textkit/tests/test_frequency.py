import unittest

from textkit.analysis.frequency import FrequencyTable, term_frequencies, top_terms
from textkit.tokenize.words import WordTokenizer


class TestFrequencyTable(unittest.TestCase):
    def test_add_and_frequency(self):
        table = FrequencyTable()
        table.add(["a", "b", "a", "c"])
        self.assertEqual(table.total, 4)
        self.assertEqual(table.frequency("a"), 0.5)
        self.assertEqual(FrequencyTable().frequency("a"), 0.0)

    def test_from_text_default_tokenizer(self):
        table = FrequencyTable.from_text("The fox and the dog and the fox")
        self.assertEqual(table.most_common(2), [("fox", 2), ("dog", 1)])
        self.assertEqual(table.total, 3)

    def test_from_text_custom_tokenizer(self):
        table = FrequencyTable.from_text("The fox, the dog", WordTokenizer())
        self.assertEqual(table.counts["the"], 2)

    def test_merge(self):
        merged = FrequencyTable.from_text("fox").merge(FrequencyTable.from_text("fox dog"))
        self.assertEqual(merged.counts["fox"], 2)
        self.assertEqual(merged.total, 3)


class TestHelpers(unittest.TestCase):
    def test_term_frequencies(self):
        self.assertEqual(term_frequencies(["x", "y", "x", "x"]), {"x": 0.75, "y": 0.25})

    def test_top_terms(self):
        self.assertEqual(top_terms("red red blue green green green", n=2), ["green", "red"])


if __name__ == "__main__":
    unittest.main()
