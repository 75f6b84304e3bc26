import unittest

from textkit.normalize import (
    collapse_whitespace,
    normalize,
    normalize_quotes,
    strip_accents,
    strip_punctuation,
)


class TestCollapseWhitespace(unittest.TestCase):
    def test_runs_of_spaces(self):
        self.assertEqual(collapse_whitespace("a   b\t\tc"), "a b c")

    def test_strips_ends_and_newlines(self):
        self.assertEqual(collapse_whitespace("  line one\n\nline two \n"), "line one line two")

    def test_empty(self):
        self.assertEqual(collapse_whitespace("   "), "")


class TestStripAccents(unittest.TestCase):
    def test_latin_accents(self):
        self.assertEqual(strip_accents("caf\u00e9 na\u00efve \u00c5ngstr\u00f6m"), "cafe naive Angstrom")

    def test_plain_text_unchanged(self):
        self.assertEqual(strip_accents("plain"), "plain")


class TestStripPunctuation(unittest.TestCase):
    def test_removes_all(self):
        self.assertEqual(strip_punctuation("Hello, world! (really?)"), "Hello world really")

    def test_keep_characters(self):
        self.assertEqual(strip_punctuation("state-of-the-art, isn't it?", keep="-'"), "state-of-the-art isn't it")


class TestNormalize(unittest.TestCase):
    def test_default_pipeline(self):
        self.assertEqual(normalize("  Caf\u00e9   \u201cCr\u00e8me\u201d "), 'cafe "creme"')

    def test_keyword_only_flags(self):
        self.assertEqual(normalize("Caf\u00e9, OK!", lower=False, accents=False, punctuation=True), "Caf\u00e9 OK")

    def test_quotes(self):
        self.assertEqual(normalize_quotes("\u2018a\u2019 \u2014 b"), "'a' - b")
        with self.assertRaises(TypeError):
            normalize("x", True)


if __name__ == "__main__":
    unittest.main()
