import unittest

from taskflow.errors import CycleError
from taskflow.graph.dag import DAG


def diamond():
    dag = DAG()
    dag.add_edge("a", "b")
    dag.add_edge("a", "c")
    dag.add_edge("b", "d")
    dag.add_edge("c", "d")
    return dag


class TestDAGEdges(unittest.TestCase):
    def test_add_edge(self):
        dag = diamond()
        self.assertEqual(dag.successors("a"), {"b", "c"})
        self.assertEqual(dag.predecessors("d"), {"b", "c"})
        self.assertEqual(dag.edges, [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
        self.assertEqual(len(dag), 4)
        self.assertIn("a", dag)

    def test_add_edge_refuses_cycles(self):
        dag = diamond()
        with self.assertRaises(CycleError) as ctx:
            dag.add_edge("d", "a")
        self.assertEqual(ctx.exception.nodes, ["a", "b", "d", "a"])
        with self.assertRaises(CycleError):
            dag.add_edge("x", "x")
        self.assertEqual(dag.successors("d"), set())

    def test_path(self):
        dag = diamond()
        self.assertEqual(dag.path("a", "d"), ["a", "b", "d"])
        self.assertEqual(dag.path("b", "b"), ["b"])
        self.assertIsNone(dag.path("d", "a"))
        self.assertIsNone(dag.path("a", "zzz"))


class TestDAGQueries(unittest.TestCase):
    def test_roots_and_leaves(self):
        dag = diamond()
        dag.add_node("lonely")
        self.assertEqual(dag.roots(), ["a", "lonely"])
        self.assertEqual(dag.leaves(), ["d", "lonely"])

    def test_ancestors_and_descendants(self):
        dag = diamond()
        dag.add_edge("d", "e")
        self.assertEqual(dag.ancestors("d"), {"a", "b", "c"})
        self.assertEqual(dag.ancestors("a"), set())
        self.assertEqual(dag.descendants("b"), {"d", "e"})

    def test_remove_node_and_subgraph(self):
        dag = diamond()
        sub = dag.subgraph(["a", "b", "d"])
        self.assertEqual(sub.edges, [("a", "b"), ("b", "d")])
        dag.remove_node("b")
        self.assertEqual(dag.edges, [("a", "c"), ("c", "d")])
        with self.assertRaises(KeyError):
            dag.remove_node("b")


if __name__ == "__main__":
    unittest.main()
