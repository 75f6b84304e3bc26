import unittest

from tinystore.document import MISSING, Document, get_path


class TestDocument(unittest.TestCase):
    def test_doc_id_and_copy(self):
        doc = Document({"a": 1}, 7)
        clone = doc.copy()
        self.assertEqual((clone, clone.doc_id), ({"a": 1}, 7))
        self.assertIsNot(clone, doc)
        self.assertEqual(repr(doc), "Document(doc_id=7, {'a': 1})")


class TestGetPath(unittest.TestCase):
    def test_nested_and_lists(self):
        data = {"a": {"b": [10, {"c": "deep"}]}}
        self.assertEqual(get_path(data, ["a", "b", "1", "c"]), "deep")
        self.assertEqual(get_path(data, ("a", "b", "0")), 10)

    def test_missing(self):
        data = {"a": {"b": 1}}
        with self.assertRaises(KeyError):
            get_path(data, ["a", "x"])
        self.assertIs(get_path(data, ["a", "b", "c"], MISSING), MISSING)
        self.assertIsNone(get_path(data, ["z"], None))
        self.assertFalse(MISSING)
        self.assertEqual(repr(MISSING), "MISSING")


if __name__ == "__main__":
    unittest.main()
