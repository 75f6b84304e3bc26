import os
import tempfile
import unittest

from tinystore import JSONStorage, MemoryStorage, TinyStore, where
from tinystore.errors import TinyStoreError, TransactionError
from tinystore.transaction import Transaction


class TestTinyStore(unittest.TestCase):
    def test_tables_and_persistence(self):
        storage = MemoryStorage()
        db = TinyStore(storage)
        db.table("a").insert({"x": 1})
        db.insert({"y": 2})
        self.assertEqual(db.tables(), ["_default", "a"])
        self.assertEqual(storage.read(), {"_default": {"1": {"y": 2}}, "a": {"1": {"x": 1}}})
        self.assertEqual(db.search(where("y") == 2)[0].doc_id, 1)
        self.assertTrue(db.drop_table("a"))
        self.assertFalse(db.drop_table("a"))
        self.assertEqual(list(storage.read()), ["_default"])

    def test_reload_from_storage(self):
        storage = MemoryStorage({"t": {"3": {"k": "v"}}})
        db = TinyStore(storage)
        table = db.table("t")
        self.assertEqual(table.get(3), {"k": "v"})
        self.assertEqual(table.insert({}), 4)

    def test_manual_persist(self):
        storage = MemoryStorage()
        db = TinyStore(storage, auto_persist=False)
        db.insert({"a": 1})
        self.assertEqual(storage.writes, 0)
        db.persist(force=True)
        self.assertEqual(storage.writes, 1)
        db.insert({"a": 2})
        db.close()
        self.assertEqual(len(storage.read()["_default"]), 2)

    def test_closed(self):
        db = TinyStore()
        db.close()
        db.close()
        with self.assertRaises(TinyStoreError):
            db.table("x")
        with self.assertRaises(TinyStoreError):
            db.persist()

    def test_json_file_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "db.json")
            with TinyStore(JSONStorage(path)) as db:
                db.table("people").insert({"name": "Ada"})
            with TinyStore(JSONStorage(path)) as db:
                self.assertEqual(db.table("people").all()[0]["name"], "Ada")


class TestTransaction(unittest.TestCase):
    def test_commit_persists_once(self):
        storage = MemoryStorage()
        db = TinyStore(storage)
        db.table("t")
        with db.transaction("t") as table:
            table.insert({"a": 1})
            table.insert({"a": 2})
            self.assertEqual(storage.writes, 0)
        self.assertEqual(storage.writes, 1)
        self.assertEqual(len(storage.read()["t"]), 2)

    def test_rollback_on_error(self):
        db = TinyStore()
        table = db.table("t")
        table.insert({"a": 1})
        table.create_index("a")
        with self.assertRaises(RuntimeError):
            with db.transaction("t") as tx_table:
                tx_table.insert({"a": 2})
                tx_table.update({"a": 9}, where("a") == 1)
                raise RuntimeError("abort")
        self.assertEqual([doc["a"] for doc in table.all()], [1])
        self.assertEqual(table.search(where("a") == 1)[0].doc_id, 1)
        self.assertEqual(table.insert({}), 2)
        self.assertIs(table._database, db)

    def test_misuse(self):
        transaction = TinyStore().transaction()
        with self.assertRaises(TransactionError):
            transaction.rollback()
        with transaction:
            with self.assertRaises(TransactionError):
                transaction.__enter__()

    def test_table_without_database(self):
        from tinystore.table import Table

        table = Table("loose")
        with Transaction(table) as tx_table:
            tx_table.insert({"x": 1})
        self.assertEqual(len(table), 1)


if __name__ == "__main__":
    unittest.main()
