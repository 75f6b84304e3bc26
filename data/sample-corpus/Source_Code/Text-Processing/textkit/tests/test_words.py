import unittest

from textkit import words as top_level_words
from textkit.tokenize.words import WordTokenizer, remove_stopwords, words


class TestWords(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(words("Hello, World! 42 times"), ["hello", "world", "42", "times"])

    def test_keeps_inner_apostrophes_and_hyphens(self):
        self.assertEqual(words("It's a well-known fact"), ["it's", "a", "well-known", "fact"])

    def test_preserve_case(self):
        self.assertEqual(words("New York", lower=False), ["New", "York"])
        self.assertIs(top_level_words, words)


class TestRemoveStopwords(unittest.TestCase):
    def test_default_list(self):
        self.assertEqual(remove_stopwords(["The", "cat", "is", "on", "the", "mat"]), ["cat", "mat"])

    def test_custom_list(self):
        self.assertEqual(remove_stopwords(["red", "green", "blue"], stopwords={"green"}), ["red", "blue"])


class TestWordTokenizer(unittest.TestCase):
    def test_tokenize_defaults(self):
        tokenizer = WordTokenizer()
        self.assertEqual(tokenizer.tokenize("The Caf\u00e9  is OPEN"), ["the", "cafe", "is", "open"])

    def test_tokenize_drops_stopwords_and_short_tokens(self):
        tokenizer = WordTokenizer(drop_stopwords=True, min_length=3)
        self.assertEqual(tokenizer.tokenize("It is a cat on the big mat"), ["cat", "big", "mat"])

    def test_tokenize_keep_case(self):
        tokenizer = WordTokenizer(lower=False, stopwords=["ignore"], drop_stopwords=True)
        self.assertEqual(tokenizer("Please Ignore Me"), ["Please", "Me"])

    def test_for_search(self):
        tokenizer = WordTokenizer.for_search()
        self.assertIsInstance(tokenizer, WordTokenizer)
        self.assertTrue(tokenizer.drop_stopwords)
        self.assertEqual(tokenizer.min_length, 2)
        self.assertEqual(tokenizer.tokenize("A fox and a dog"), ["fox", "dog"])


if __name__ == "__main__":
    unittest.main()
