"""Text renderings of a DAG: Graphviz DOT, layers and an indented tree."""

from typing import Iterable, List

from .dag import DAG
from .toposort import layers

HIGHLIGHT_STYLE = '[style=filled, fillcolor="#ffd27f"]'


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(dag: DAG, name: str = "flow", *, rankdir: str = "LR", highlight: Iterable[str] = ()) -> str:
    """Render the DAG in Graphviz DOT syntax, optionally highlighting some nodes."""
    marked = set(highlight)
    lines = [f"digraph {_quote(name)} {{", f"    rankdir={rankdir};"]
    for node in dag.nodes:
        suffix = f" {HIGHLIGHT_STYLE}" if node in marked else ""
        lines.append(f"    {_quote(node)}{suffix};")
    for source, target in dag.edges:
        lines.append(f"    {_quote(source)} -> {_quote(target)};")
    lines.append("}")
    return "\n".join(lines)


def ascii_layers(dag: DAG) -> str:
    """Render one line per parallel layer, such as 'layer 0: a, b'."""
    return "\n".join(f"layer {index}: {', '.join(layer)}" for index, layer in enumerate(layers(dag)))


def ascii_tree(dag: DAG, root: str, indent: str = "  ") -> str:
    """Render the descendants of root as an indented tree; shared nodes are repeated."""
    lines: List[str] = []

    def walk(node: str, depth: int) -> None:
        lines.append(indent * depth + node)
        for child in sorted(dag.successors(node)):
            walk(child, depth + 1)

    walk(root, 0)
    return "\n".join(lines)
