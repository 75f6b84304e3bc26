import unittest

from minihttp.url.join import join_url, remove_dot_segments
from minihttp.url.parse import parse_url

BASE = "http://a/b/c/d;p?q"

RFC_EXAMPLES = {
    "g:h": "g:h",
    "g": "http://a/b/c/g",
    "./g": "http://a/b/c/g",
    "g/": "http://a/b/c/g/",
    "/g": "http://a/g",
    "//g": "http://g",
    "?y": "http://a/b/c/d;p?y",
    "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s",
    "g;x?y#s": "http://a/b/c/g;x?y#s",
    "": "http://a/b/c/d;p?q",
    ".": "http://a/b/c/",
    "..": "http://a/b/",
    "../g": "http://a/b/g",
    "../..": "http://a/",
    "../../../g": "http://a/g",
    "/./g": "http://a/g",
    "g/../h": "http://a/b/c/h",
}


class TestRemoveDotSegments(unittest.TestCase):
    def test_rfc_example(self):
        self.assertEqual(remove_dot_segments("/a/b/c/./../../g"), "/a/g")
        self.assertEqual(remove_dot_segments("mid/content=5/../6"), "mid/6")

    def test_edges(self):
        self.assertEqual(remove_dot_segments("/.."), "/")
        self.assertEqual(remove_dot_segments("/a/b/.."), "/a/")
        self.assertEqual(remove_dot_segments(""), "")


class TestJoinUrl(unittest.TestCase):
    def test_rfc3986_examples(self):
        for reference, expected in RFC_EXAMPLES.items():
            with self.subTest(reference=reference):
                self.assertEqual(str(join_url(BASE, reference)), expected)

    def test_base_object_and_empty_path(self):
        self.assertEqual(str(join_url(parse_url("http://example.com"), "x")), "http://example.com/x")


if __name__ == "__main__":
    unittest.main()
