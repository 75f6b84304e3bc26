"""A directed acyclic graph of named nodes."""

from collections import deque
from typing import Dict, Iterable, List, Optional, Set, Tuple

from ..errors import CycleError


class DAG:
    """A directed graph that refuses edges closing a cycle."""

    def __init__(self):
        self._successors: Dict[str, Set[str]] = {}
        self._predecessors: Dict[str, Set[str]] = {}

    def add_node(self, node: str) -> None:
        """Add a node; adding an existing node does nothing."""
        self._successors.setdefault(node, set())
        self._predecessors.setdefault(node, set())

    def add_edge(self, source: str, target: str) -> None:
        """Add the edge source -> target, refusing an edge that would close a cycle."""
        if source == target:
            raise CycleError([source, target])
        self.add_node(source)
        self.add_node(target)
        back = self.path(target, source)
        if back is not None:
            raise CycleError(back + [target])
        self._successors[source].add(target)
        self._predecessors[target].add(source)

    def path(self, start: str, end: str) -> Optional[List[str]]:
        """Return a shortest path of nodes from start to end, or None when there is none."""
        if start not in self._successors or end not in self._successors:
            return None
        previous: Dict[str, Optional[str]] = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if node == end:
                route = []
                while node is not None:
                    route.append(node)
                    node = previous[node]
                return route[::-1]
            for following in sorted(self._successors[node]):
                if following not in previous:
                    previous[following] = node
                    queue.append(following)
        return None

    def remove_node(self, node: str) -> None:
        """Remove a node and its edges; raise KeyError for an unknown node."""
        for following in self._successors.pop(node):
            self._predecessors[following].discard(node)
        for preceding in self._predecessors.pop(node):
            self._successors[preceding].discard(node)

    def successors(self, node: str) -> Set[str]:
        """Return the nodes that the node has an edge to."""
        return set(self._successors[node])

    def predecessors(self, node: str) -> Set[str]:
        """Return the nodes that have an edge to the node."""
        return set(self._predecessors[node])

    def roots(self) -> List[str]:
        """Return the nodes without predecessors, sorted."""
        return sorted(node for node, preceding in self._predecessors.items() if not preceding)

    def leaves(self) -> List[str]:
        """Return the nodes without successors, sorted."""
        return sorted(node for node, following in self._successors.items() if not following)

    def ancestors(self, node: str) -> Set[str]:
        """Return every node from which the node can be reached."""
        seen: Set[str] = set()
        stack = list(self._predecessors[node])
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(self._predecessors[current])
        return seen

    def descendants(self, node: str) -> Set[str]:
        """Return every node reachable from the node."""
        seen: Set[str] = set()
        stack = list(self._successors[node])
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(self._successors[current])
        return seen

    def subgraph(self, nodes: Iterable[str]) -> "DAG":
        """Return the graph induced by the nodes."""
        keep = set(nodes)
        graph = DAG()
        for node in sorted(keep):
            graph.add_node(node)
        for source, target in self.edges:
            if source in keep and target in keep:
                graph.add_edge(source, target)
        return graph

    @property
    def nodes(self) -> List[str]:
        """The nodes, sorted."""
        return sorted(self._successors)

    @property
    def edges(self) -> List[Tuple[str, str]]:
        """The edges as (source, target) pairs, sorted."""
        return sorted((source, target) for source, following in self._successors.items() for target in following)

    def __contains__(self, node: object) -> bool:
        return node in self._successors

    def __len__(self) -> int:
        return len(self._successors)
