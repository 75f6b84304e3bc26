import datetime
import json
import os
import tempfile
import unittest

from tinystore.errors import StorageError
from tinystore.serialization import decode_hook, encode_value
from tinystore.storage import JSONStorage, MemoryStorage


class TestMemoryStorage(unittest.TestCase):
    def test_copies(self):
        storage = MemoryStorage()
        self.assertIsNone(storage.read())
        data = {"t": {"1": {"a": [1]}}}
        storage.write(data)
        data["t"]["1"]["a"].append(2)
        self.assertEqual(storage.read(), {"t": {"1": {"a": [1]}}})
        self.assertEqual(storage.writes, 1)


class TestJSONStorage(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "sub", "db.json")

    def tearDown(self):
        self.tmp.cleanup()

    def test_round_trip_with_special_values(self):
        storage = JSONStorage(self.path, create_dirs=True, indent=2)
        self.assertIsNone(storage.read())
        data = {"t": {"1": {"when": datetime.date(2024, 2, 29), "tags": {"b", "a"}, "raw": b"\x00\x01"}}}
        storage.write(data)
        self.assertEqual(storage.read(), data)
        self.assertEqual(os.listdir(os.path.dirname(self.path)), ["db.json"])

    def test_blank_and_corrupt_files(self):
        os.makedirs(os.path.dirname(self.path))
        with open(self.path, "w") as handle:
            handle.write("  \n")
        storage = JSONStorage(self.path)
        self.assertIsNone(storage.read())
        with open(self.path, "w") as handle:
            handle.write("{broken")
        with self.assertRaises(StorageError):
            storage.read()

    def test_failed_write_leaves_no_temp_file(self):
        os.makedirs(os.path.dirname(self.path))
        storage = JSONStorage(self.path)
        with self.assertRaises(TypeError):
            storage.write({"t": {"1": {"bad": object()}}})
        self.assertEqual(os.listdir(os.path.dirname(self.path)), [])

    def test_context_manager(self):
        with JSONStorage(self.path, create_dirs=True) as storage:
            storage.write({})
        self.assertTrue(os.path.exists(self.path))


class TestSerialization(unittest.TestCase):
    def test_encode_value(self):
        moment = datetime.datetime(2024, 1, 2, 3, 4, 5)
        self.assertEqual(encode_value(moment), {"$type": "datetime", "value": "2024-01-02T03:04:05"})
        self.assertEqual(encode_value({3, 1}), {"$type": "set", "value": [1, 3]})
        self.assertEqual(encode_value(b"hi"), {"$type": "bytes", "value": "aGk="})
        with self.assertRaises(TypeError):
            encode_value(object())

    def test_decode_hook(self):
        text = json.dumps({"d": {"$type": "date", "value": "2020-05-01"}, "other": {"$type": "x", "value": 1}})
        decoded = json.loads(text, object_hook=decode_hook)
        self.assertEqual(decoded["d"], datetime.date(2020, 5, 1))
        self.assertEqual(decoded["other"], {"$type": "x", "value": 1})


if __name__ == "__main__":
    unittest.main()
