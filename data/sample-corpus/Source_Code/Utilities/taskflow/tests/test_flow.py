import unittest

from taskflow import Flow, SyncRunner, Task
from taskflow.errors import DuplicateTaskError, MissingDependencyError


class TestFlow(unittest.TestCase):
    def build(self):
        flow = Flow("pipeline")
        flow.add(Task("a", lambda: 1))
        flow.add(Task("b", lambda a: a + 1, requires=("a",)))
        flow.add(Task("c", lambda b: b * 2, requires=("b",)))
        flow.add(Task("side", lambda: "x"))
        return flow

    def test_add_and_duplicates(self):
        flow = self.build()
        self.assertEqual(sorted(flow.tasks), ["a", "b", "c", "side"])
        with self.assertRaises(DuplicateTaskError):
            flow.add(Task("a", print))

    def test_task_decorator(self):
        flow = Flow()

        @flow.task
        def first():
            return 1

        @flow.task(requires=["first"], retries=1)
        def second(first):
            return first + 1

        self.assertIs(flow.tasks["second"], second)
        self.assertEqual(second.retries, 1)
        self.assertEqual(flow.run()["second"].value, 2)

    def test_dag(self):
        dag = self.build().dag
        self.assertEqual(dag.edges, [("a", "b"), ("b", "c")])
        self.assertEqual(dag.nodes, ["a", "b", "c", "side"])
        broken = Flow(tasks=[Task("x", print, requires=("ghost",))])
        with self.assertRaises(MissingDependencyError) as ctx:
            broken.dag
        self.assertEqual((ctx.exception.task, ctx.exception.dependency), ("x", "ghost"))

    def test_subflow(self):
        sub = self.build().subflow("c")
        self.assertEqual(sub.name, "pipeline[c]")
        self.assertEqual(sorted(sub.tasks), ["a", "b", "c"])
        self.assertEqual(sub.run()["c"].value, 4)
        with self.assertRaises(KeyError):
            self.build().subflow("missing")

    def test_run_with_runner_and_dot(self):
        report = self.build().run(SyncRunner())
        self.assertEqual(report.values(), {"a": 1, "b": 2, "c": 4, "side": "x"})
        dot = self.build().to_dot(rankdir="TB")
        self.assertTrue(dot.startswith('digraph "pipeline" {\n    rankdir=TB;'))
        self.assertIn('"a" -> "b";', dot)


if __name__ == "__main__":
    unittest.main()
