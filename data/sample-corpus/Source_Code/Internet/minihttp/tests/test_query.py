import unittest

from minihttp.url.query import encode_qs, merge_query, parse_qs, parse_qsl


class TestParseQuery(unittest.TestCase):
    def test_parse_qsl(self):
        self.assertEqual(parse_qsl("?a=1&b=x+y&a=2;c=%C3%A9"), [("a", "1"), ("b", "x y"), ("a", "2"), ("c", "\u00e9")])

    def test_parse_qsl_blank_values(self):
        self.assertEqual(parse_qsl("a=&b=1&flag"), [("b", "1")])
        self.assertEqual(parse_qsl("a=&b=1&flag", keep_blank=True), [("a", ""), ("b", "1"), ("flag", "")])

    def test_parse_qs(self):
        self.assertEqual(parse_qs("a=1&b=2&a=3"), {"a": ["1", "3"], "b": ["2"]})
        self.assertEqual(parse_qs(""), {})


class TestEncodeQuery(unittest.TestCase):
    def test_mapping_lists_and_none(self):
        self.assertEqual(encode_qs({"q": "a b", "tag": ["x", "y"], "skip": None}), "q=a%20b&tag=x&tag=y")

    def test_pairs_bools_and_sort(self):
        self.assertEqual(encode_qs([("z", True), ("a", False), ("m", 3)], sort=True), "a=false&m=3&z=true")

    def test_merge_query(self):
        self.assertEqual(merge_query("a=1&b=2", {"b": "3", "c": "4"}), "a=1&b=3&c=4")


if __name__ == "__main__":
    unittest.main()
