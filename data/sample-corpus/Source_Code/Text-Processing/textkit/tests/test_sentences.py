import unittest

from textkit.tokenize.sentences import SentenceSplitter, split_sentences


class TestSentenceSplitter(unittest.TestCase):
    def test_split_basic(self):
        text = "Hello there.  How are you?\nI am fine! Thanks."
        self.assertEqual(split_sentences(text), ["Hello there.", "How are you?", "I am fine!", "Thanks."])

    def test_split_abbreviations(self):
        splitter = SentenceSplitter()
        self.assertEqual(
            splitter.split("Dr. Smith met Mr. Jones. They talked."),
            ["Dr. Smith met Mr. Jones.", "They talked."],
        )

    def test_split_empty(self):
        self.assertEqual(SentenceSplitter().split("   "), [])

    def test_split_custom_abbreviation(self):
        splitter = SentenceSplitter(abbreviations=[])
        self.assertEqual(splitter.split("See Fig. 3 here."), ["See Fig.", "3 here."])
        splitter.add_abbreviation("Fig.")
        self.assertEqual(splitter.split("See Fig. 3 here."), ["See Fig. 3 here."])

    def test_is_abbreviation(self):
        splitter = SentenceSplitter()
        self.assertTrue(splitter.is_abbreviation("Dr."))
        self.assertTrue(splitter.is_abbreviation("e.g."))
        self.assertFalse(splitter.is_abbreviation("Dr"))
        self.assertFalse(splitter.is_abbreviation("house."))


if __name__ == "__main__":
    unittest.main()
