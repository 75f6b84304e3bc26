import unittest

from textkit.stem import Lemmatizer, PorterStemmer, stem_word


class TestPorterStemmer(unittest.TestCase):
    def setUp(self):
        self.stemmer = PorterStemmer()

    def test_stem_plurals(self):
        for word, expected in [("caresses", "caress"), ("ponies", "poni"), ("cats", "cat")]:
            self.assertEqual(self.stemmer.stem(word), expected)

    def test_stem_verbs(self):
        for word, expected in [
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("hopping", "hop"),
            ("hoping", "hope"),
            ("falling", "fall"),
        ]:
            self.assertEqual(self.stemmer.stem(word), expected)

    def test_stem_derivations(self):
        self.assertEqual(self.stemmer.stem("relational"), "relat")
        self.assertEqual(self.stemmer.stem("Happy"), "happi")
        self.assertEqual(self.stemmer.stem("is"), "is")

    def test_is_consonant(self):
        self.assertTrue(PorterStemmer.is_consonant("toy", 0))
        self.assertFalse(PorterStemmer.is_consonant("toy", 1))
        self.assertTrue(PorterStemmer.is_consonant("toy", 2))
        self.assertFalse(PorterStemmer.is_consonant("syzygy", 1))
        self.assertTrue(PorterStemmer.is_consonant("yes", 0))

    def test_measure(self):
        self.assertEqual(self.stemmer.measure("tr"), 0)
        self.assertEqual(self.stemmer.measure("tree"), 0)
        self.assertEqual(self.stemmer.measure("trouble"), 1)
        self.assertEqual(self.stemmer.measure("oaten"), 2)
        self.assertEqual(self.stemmer.measure("private"), 2)


class TestStemWord(unittest.TestCase):
    def test_cached(self):
        stem_word.cache_clear()
        self.assertEqual(stem_word("running"), "run")
        self.assertEqual(stem_word("running"), "run")
        self.assertIn(("running",), stem_word.cache)
        self.assertEqual(stem_word.__name__, "stem_word")


class TestLemmatizer(unittest.TestCase):
    def test_irregular(self):
        lemmatizer = Lemmatizer()
        self.assertEqual(lemmatizer.lemmatize("Went"), "go")
        self.assertEqual(lemmatizer.lemmatize("children"), "child")
        self.assertIn("mice", lemmatizer)

    def test_suffix_rules(self):
        lemmatizer = Lemmatizer()
        self.assertEqual(lemmatizer.lemmatize("cities"), "city")
        self.assertEqual(lemmatizer.lemmatize("dogs"), "dog")
        self.assertEqual(lemmatizer.lemmatize("glass"), "glass")

    def test_fallback_to_stem(self):
        self.assertEqual(Lemmatizer().lemmatize("hopping"), "hopping")
        self.assertEqual(Lemmatizer(fallback_to_stem=True).lemmatize("hopping"), "hop")

    def test_extra_entries(self):
        lemmatizer = Lemmatizer(extra={"Data": "Datum"})
        self.assertEqual(lemmatizer.lemmatize("data"), "datum")
        self.assertEqual(lemmatizer.size, Lemmatizer().size + 1)


if __name__ == "__main__":
    unittest.main()
