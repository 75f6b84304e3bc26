import unittest

from taskflow.errors import TaskflowError
from taskflow.task import Task, task


class TestTaskDecorator(unittest.TestCase):
    def test_bare(self):
        @task
        def fetch():
            return 1

        self.assertIsInstance(fetch, Task)
        self.assertEqual((fetch.name, fetch.requires, fetch.retries), ("fetch", (), 0))
        self.assertEqual(fetch(), 1)

    def test_with_options(self):
        @task(name="load", requires=["a", "b"], retries=2, timeout=1.5, tags=["io"])
        async def loader(a, b):
            return a + b

        self.assertEqual(loader.name, "load")
        self.assertEqual(loader.requires, ("a", "b"))
        self.assertEqual(loader.tags, frozenset({"io"}))
        self.assertTrue(loader.is_async)

    def test_validation(self):
        with self.assertRaises(TaskflowError):
            Task("x", print, retries=-1)
        with self.assertRaises(TaskflowError):
            Task("x", print, requires=["x"])


class TestBindInputs(unittest.TestCase):
    def test_named_parameters(self):
        item = Task("t", lambda a, c=0: a + c, requires=("a", "b"))
        self.assertEqual(item.bind_inputs({"a": 1, "b": 2, "z": 3}), {"a": 1})

    def test_var_keyword(self):
        item = Task("t", lambda **kw: kw, requires=("a", "b"))
        self.assertEqual(item.bind_inputs({"a": 1, "b": 2}), {"a": 1, "b": 2})

    def test_missing_result(self):
        item = Task("t", lambda a: a, requires=("a",))
        with self.assertRaises(TaskflowError):
            item.bind_inputs({})


if __name__ == "__main__":
    unittest.main()
