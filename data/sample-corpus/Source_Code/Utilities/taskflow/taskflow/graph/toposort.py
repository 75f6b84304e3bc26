"""Orderings of a DAG: topological order, parallel layers and the critical path."""

import heapq
from typing import Dict, List, Mapping, Optional, Tuple

from ..errors import CycleError
from .dag import DAG


def topological_sort(dag: DAG) -> List[str]:
    """Return the nodes in dependency order (Kahn's algorithm, ties broken by name)."""
    in_degree = {node: len(dag.predecessors(node)) for node in dag.nodes}
    ready = [node for node, degree in in_degree.items() if degree == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for following in dag.successors(node):
            in_degree[following] -= 1
            if in_degree[following] == 0:
                heapq.heappush(ready, following)
    if len(order) != len(in_degree):
        raise CycleError(sorted(set(in_degree) - set(order)))
    return order


def layers(dag: DAG) -> List[List[str]]:
    """Group the nodes into layers that can run in parallel; a node sits one layer below its deepest predecessor."""
    depth: Dict[str, int] = {}
    for node in topological_sort(dag):
        depth[node] = 1 + max((depth[p] for p in dag.predecessors(node)), default=-1)
    result: List[List[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for node, level in depth.items():
        result[level].append(node)
    return [sorted(layer) for layer in result]


def critical_path(dag: DAG, durations: Mapping[str, float]) -> Tuple[List[str], float]:
    """Return the path with the largest total duration, and that duration."""
    finish: Dict[str, float] = {}
    previous: Dict[str, Optional[str]] = {}
    for node in topological_sort(dag):
        start, before = 0.0, None
        for preceding in sorted(dag.predecessors(node)):
            if finish[preceding] > start:
                start, before = finish[preceding], preceding
        finish[node] = start + durations.get(node, 0.0)
        previous[node] = before
    if not finish:
        return [], 0.0
    end = max(sorted(finish), key=lambda node: finish[node])
    path = []
    node: Optional[str] = end
    while node is not None:
        path.append(node)
        node = previous[node]
    return path[::-1], finish[end]
