import unittest

from tinystore.errors import DocumentNotFound
from tinystore.query import Condition, where
from tinystore.table import Table

PEOPLE = [
    {"name": "Ada", "age": 36, "city": "London"},
    {"name": "Bob", "age": 20, "city": "Oslo"},
    {"name": "Cy", "age": 52, "city": "Oslo"},
]


class TestTableBasics(unittest.TestCase):
    def setUp(self):
        self.table = Table("people")
        self.ids = self.table.insert_many(PEOPLE)

    def test_insert_and_get(self):
        self.assertEqual(self.ids, [1, 2, 3])
        doc_id = self.table.insert({"name": "Dee"})
        self.assertEqual(doc_id, 4)
        self.assertEqual(self.table.get(4).doc_id, 4)
        with self.assertRaises(DocumentNotFound):
            self.table.get(99)
        with self.assertRaises(TypeError):
            self.table.insert(["not", "a", "dict"])
        self.assertEqual(self.table.insert_many([]), [])

    def test_all_len_iter_repr(self):
        self.assertEqual([doc["name"] for doc in self.table.all()], ["Ada", "Bob", "Cy"])
        self.assertEqual(len(self.table), 3)
        self.assertEqual([doc.doc_id for doc in self.table], [1, 2, 3])
        self.assertEqual(repr(self.table), "<Table 'people' documents=3>")

    def test_load_and_dump(self):
        other = Table("copy")
        other.load(self.table.dump())
        self.assertEqual(other.dump(), self.table.dump())
        self.assertEqual(other.insert({}), 4)


class TestTableSearch(unittest.TestCase):
    def setUp(self):
        self.table = Table("people")
        self.table.insert_many(PEOPLE)

    def test_search(self):
        results = self.table.search((where("city") == "Oslo") & (where("age") > 30))
        self.assertEqual([doc["name"] for doc in results], ["Cy"])
        self.assertEqual(self.table.find_one(where("age") < 30)["name"], "Bob")
        self.assertIsNone(self.table.find_one(where("age") > 100))
        self.assertEqual(self.table.count(where("city") == "Oslo"), 2)
        self.assertEqual(self.table.count(), 3)

    def test_search_caches_cacheable_conditions(self):
        cache = self.table._query_cache
        self.table.search(where("city") == "Oslo")
        self.table.search(where("city") == "Oslo")
        self.assertEqual((cache.hits, cache.misses), (1, 1))
        self.table.search(Condition(lambda doc: True, "all"))
        self.assertEqual(len(cache), 1)
        self.table.insert({"city": "Oslo"})
        self.assertEqual(len(self.table.search(where("city") == "Oslo")), 3)

    def test_search_uses_index(self):
        self.table.create_index("city")
        self.assertIs(self.table.create_index("city"), self.table._indexes["city"])
        self.assertEqual(self.table._candidates(where("city") == "Oslo"), [2, 3])
        self.assertEqual(self.table._candidates(where("age") == 20), [1, 2, 3])
        self.assertEqual(self.table._candidates(where("city") != "Oslo"), [1, 2, 3])
        self.assertEqual([doc["name"] for doc in self.table.search(where("city") == "Oslo")], ["Bob", "Cy"])


class TestTableChanges(unittest.TestCase):
    def setUp(self):
        self.table = Table("people")
        self.table.insert_many(PEOPLE)
        self.table.create_index("city")

    def test_update_mapping_and_condition(self):
        self.assertEqual(self.table.update({"city": "Rome"}, where("name") == "Bob"), [2])
        self.assertEqual(self.table.get(2)["city"], "Rome")
        self.assertEqual([doc.doc_id for doc in self.table.search(where("city") == "Rome")], [2])

    def test_update_function_all_and_ids(self):
        def birthday(doc):
            doc["age"] += 1

        self.assertEqual(self.table.update(birthday), [1, 2, 3])
        self.assertEqual(self.table.get(1)["age"], 37)
        self.assertEqual(self.table.update({"vip": True}, doc_ids=[3]), [3])
        with self.assertRaises(DocumentNotFound):
            self.table.update({"x": 1}, doc_ids=[3, 42])
        self.assertEqual(self.table.update({"x": 1}, where("age") > 100), [])

    def test_remove(self):
        self.assertEqual(self.table.remove(where("city") == "Oslo"), [2, 3])
        self.assertEqual(self.table.remove(doc_ids=[1, 7]), [1])
        self.assertEqual(len(self.table), 0)
        self.assertEqual(self.table._indexes["city"].lookup("Oslo"), set())
        with self.assertRaises(ValueError):
            self.table.remove()

    def test_truncate_and_snapshot(self):
        snap = self.table.snapshot()
        self.table.truncate()
        self.assertEqual(self.table.insert({"a": 1}), 1)
        self.table.restore(snap)
        self.assertEqual(len(self.table), 3)
        self.assertEqual(self.table.insert({}), 4)


if __name__ == "__main__":
    unittest.main()
