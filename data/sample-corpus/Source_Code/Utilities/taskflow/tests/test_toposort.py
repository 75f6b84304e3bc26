import unittest

from taskflow.graph.dag import DAG
from taskflow.graph.toposort import critical_path, layers, topological_sort
from taskflow.graph.visualize import ascii_layers, ascii_tree, to_dot


def build():
    dag = DAG()
    for source, target in [("fetch", "parse"), ("parse", "report"), ("config", "parse"), ("config", "report"), ("fetch", "archive")]:
        dag.add_edge(source, target)
    return dag


class TestTopologicalSort(unittest.TestCase):
    def test_order_respects_edges_and_names(self):
        self.assertEqual(topological_sort(build()), ["config", "fetch", "archive", "parse", "report"])

    def test_empty(self):
        self.assertEqual(topological_sort(DAG()), [])


class TestLayers(unittest.TestCase):
    def test_layers(self):
        self.assertEqual(layers(build()), [["config", "fetch"], ["archive", "parse"], ["report"]])
        self.assertEqual(layers(DAG()), [])


class TestCriticalPath(unittest.TestCase):
    def test_longest_duration(self):
        durations = {"fetch": 5.0, "parse": 2.0, "report": 1.0, "config": 1.0, "archive": 10.0}
        self.assertEqual(critical_path(build(), durations), (["fetch", "archive"], 15.0))
        durations["archive"] = 1.0
        self.assertEqual(critical_path(build(), durations), (["fetch", "parse", "report"], 8.0))

    def test_empty(self):
        self.assertEqual(critical_path(DAG(), {}), ([], 0.0))


class TestVisualize(unittest.TestCase):
    def test_to_dot(self):
        dag = DAG()
        dag.add_edge('say "hi"', "b")
        expected = "\n".join([
            'digraph "g" {',
            "    rankdir=TB;",
            '    "b" [style=filled, fillcolor="#ffd27f"];',
            '    "say \\"hi\\"";',
            '    "say \\"hi\\"" -> "b";',
            "}",
        ])
        self.assertEqual(to_dot(dag, "g", rankdir="TB", highlight=["b"]), expected)

    def test_ascii(self):
        self.assertEqual(ascii_layers(build()), "layer 0: config, fetch\nlayer 1: archive, parse\nlayer 2: report")
        self.assertEqual(ascii_tree(build(), "fetch", indent="- "), "fetch\n- archive\n- parse\n- - report")


if __name__ == "__main__":
    unittest.main()
