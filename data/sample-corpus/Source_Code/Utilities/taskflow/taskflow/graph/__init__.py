"""Directed acyclic graphs, their orderings and renderings."""

from .dag import DAG
from .toposort import critical_path, layers, topological_sort
from .visualize import ascii_layers, ascii_tree, to_dot

__all__ = ["DAG", "ascii_layers", "ascii_tree", "critical_path", "layers", "to_dot", "topological_sort"]
