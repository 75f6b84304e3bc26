import unittest

from tinystore.errors import QueryError
from tinystore.query import Condition, Field, where

ADA = {"name": "Ada", "age": 36, "tags": ["math", "code"], "address": {"city": "London"}}
BOB = {"name": "Bob", "age": "unknown", "tags": []}


class TestField(unittest.TestCase):
    def test_comparisons(self):
        self.assertTrue((where("age") == 36)(ADA))
        self.assertTrue((where("age") != 35)(ADA))
        self.assertTrue((where("age") < 40)(ADA))
        self.assertTrue((where("age") <= 36)(ADA))
        self.assertFalse((where("age") > 36)(ADA))
        self.assertTrue((where("age") >= 36)(ADA))

    def test_type_errors_do_not_match(self):
        self.assertFalse((where("age") > 30)(BOB))

    def test_nested_access(self):
        self.assertTrue((where("address.city") == "London")(ADA))
        self.assertTrue((Field("address").city == "London")(ADA))
        self.assertFalse((where("address.city") == "London")(BOB))
        with self.assertRaises(QueryError):
            Field()
        with self.assertRaises(AttributeError):
            Field("a")._private

    def test_helpers(self):
        self.assertTrue(where("address").exists()(ADA))
        self.assertFalse(where("address").exists()(BOB))
        self.assertTrue(where("name").one_of(["Ada", "Eve"])(ADA))
        self.assertTrue(where("name").matches(r"a\w+", flags=2)(ADA))
        self.assertFalse(where("age").matches(r"\d+")(ADA))
        self.assertTrue(where("tags").any(["code", "art"])(ADA))
        self.assertFalse(where("tags").any(["code"])(BOB))
        self.assertTrue(where("age").test(lambda value, limit: value > limit, 30)(ADA))


class TestCondition(unittest.TestCase):
    def test_combinators(self):
        adult_londoner = (where("age") >= 18) & (where("address.city") == "London")
        self.assertTrue(adult_londoner(ADA))
        self.assertFalse(adult_londoner(BOB))
        self.assertTrue(((where("name") == "Bob") | (where("age") == 36))(ADA))
        self.assertTrue((~(where("name") == "Bob"))(ADA))
        self.assertEqual(repr(~(where("a") == 1)), "Condition(~a == 1)")

    def test_structural_equality_and_cacheability(self):
        self.assertEqual(where("a") == [1, 2], where("a") == [1, 2])
        self.assertEqual(hash((where("a") == 1) & (where("b") == 2)), hash((where("b") == 2) & (where("a") == 1)))
        self.assertNotEqual(where("a") == 1, where("a") == 2)
        custom = Condition(lambda doc: True, "always")
        self.assertFalse(custom.is_cacheable)
        self.assertFalse((custom & (where("a") == 1)).is_cacheable)
        self.assertNotEqual(custom, Condition(lambda doc: True, "always"))

    def test_equality_key(self):
        self.assertEqual((where("address.city") == "Oslo").equality_key, (("address", "city"), "Oslo"))
        self.assertIsNone((where("age") > 3).equality_key)


if __name__ == "__main__":
    unittest.main()
