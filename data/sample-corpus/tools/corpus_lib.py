"""Shared helpers of make_metadata.py and check.py: locating target functions with `ast`,
computing DevEval positions, and resolving the names a function body uses to DevEval
dependency namespaces (intra_class, intra_file, cross_file).

Standard library only (Python 3.8+).
"""

import ast
import json
import os
import tokenize
from typing import Dict, Iterator, List, Optional, Set, Tuple

TOOLS_DIR = os.path.dirname(os.path.abspath(__file__))
CORPUS_DIR = os.path.dirname(TOOLS_DIR)
SOURCE_DIR = os.path.join(CORPUS_DIR, "Source_Code")
TARGETS_PATH = os.path.join(TOOLS_DIR, "targets.json")
DATA_PATH = os.path.join(CORPUS_DIR, "data.jsonl")

DEVEVAL_KEYS = (
    "namespace",
    "type",
    "project_path",
    "completion_path",
    "signature_position",
    "body_position",
    "dependency",
    "requirement",
    "tests",
    "indent",
)
DEPENDENCY_KINDS = ("intra_class", "intra_file", "cross_file")

FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef)
# Module-level statements whose bodies still define module-level names.
BLOCK_NODES = (ast.If, ast.Try, ast.With)


def load_targets(path: str = TARGETS_PATH) -> List[dict]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def list_projects() -> List[str]:
    """Return the '<Topic>/<repo>' paths of every project, sorted."""
    projects = []
    for topic in sorted(os.listdir(SOURCE_DIR)):
        topic_dir = os.path.join(SOURCE_DIR, topic)
        if not os.path.isdir(topic_dir):
            continue
        for repo in sorted(os.listdir(topic_dir)):
            if os.path.isdir(os.path.join(topic_dir, repo)):
                projects.append(f"{topic}/{repo}")
    return projects


def block_children(node: ast.AST) -> Iterator[Tuple[ast.stmt, bool]]:
    """Yield (statement, inside_conditional) for the statements nested in a module-level block."""
    if isinstance(node, ast.If):
        for child in node.body + node.orelse:
            yield child, True
    elif isinstance(node, ast.Try):
        for child in node.body + node.orelse + node.finalbody:
            yield child, False
        for handler in node.handlers:
            for child in handler.body:
                yield child, True
    elif isinstance(node, ast.With):
        for child in node.body:
            yield child, False


def iter_module_statements(tree: ast.Module) -> Iterator[Tuple[ast.stmt, bool]]:
    """Yield every module-level statement, descending into if/try/with blocks, with a conditional flag."""

    def walk(statements, conditional):
        for stmt in statements:
            yield stmt, conditional
            if isinstance(stmt, BLOCK_NODES):
                for child, nested in block_children(stmt):
                    yield from walk([child], conditional or nested)

    yield from walk(tree.body, False)


def assigned_names(target: ast.AST) -> List[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        names = []
        for element in target.elts:
            names.extend(assigned_names(element))
        return names
    if isinstance(target, ast.Starred):
        return assigned_names(target.value)
    return []


class ClassInfo:
    """Members and bases of a class."""

    def __init__(self, node: ast.ClassDef):
        self.node = node
        self.name = node.name
        self.bases = node.bases
        self.members: Set[str] = set()
        for stmt in node.body:
            if isinstance(stmt, FUNCTION_NODES + (ast.ClassDef,)):
                self.members.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    self.members.update(assigned_names(target))
            elif isinstance(stmt, ast.AnnAssign):
                self.members.update(assigned_names(stmt.target))
        for stmt in node.body:
            positional = stmt.args.posonlyargs + stmt.args.args if isinstance(stmt, FUNCTION_NODES) else []
            if positional:
                self.members.update(self_assignments(stmt, positional[0].arg))


def self_assignments(func: ast.AST, self_name: str) -> Set[str]:
    """Return the attribute names assigned as self_name.X anywhere in the function."""
    names = set()
    for node in ast.walk(func):
        targets: List[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            stack = [target]
            while stack:
                item = stack.pop()
                if isinstance(item, (ast.Tuple, ast.List)):
                    stack.extend(item.elts)
                elif (
                    isinstance(item, ast.Attribute)
                    and isinstance(item.value, ast.Name)
                    and item.value.id == self_name
                ):
                    names.add(item.attr)
    return names


class ModuleInfo:
    """The module-level names of one module: definitions, imports and classes."""

    def __init__(self, repo: "Repository", name: str, path: str):
        self.repo = repo
        self.name = name
        self.path = path
        self.is_package = os.path.basename(path) == "__init__.py"
        with open(path, encoding="utf-8") as handle:
            self.source = handle.read()
        self.tree = ast.parse(self.source, filename=path)
        self.definitions: Set[str] = set()
        self.imports: Dict[str, str] = {}
        self.classes: Dict[str, ClassInfo] = {}
        for stmt, _conditional in iter_module_statements(self.tree):
            if isinstance(stmt, FUNCTION_NODES):
                self.definitions.add(stmt.name)
            elif isinstance(stmt, ast.ClassDef):
                self.definitions.add(stmt.name)
                self.classes.setdefault(stmt.name, ClassInfo(stmt))
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    self.definitions.update(assigned_names(target))
            elif isinstance(stmt, ast.AnnAssign):
                self.definitions.update(assigned_names(stmt.target))
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.imports.update(import_bindings(stmt, self.package_name))

    @property
    def package_name(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


def import_bindings(stmt: ast.stmt, package: str) -> Dict[str, str]:
    """Map the names an import statement binds to absolute dotted targets."""
    bindings = {}
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                bindings[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                bindings[head] = head
    elif isinstance(stmt, ast.ImportFrom):
        if stmt.level:
            parts = package.split(".") if package else []
            if stmt.level > 1:
                parts = parts[: len(parts) - (stmt.level - 1)]
            base = ".".join(parts + ([stmt.module] if stmt.module else []))
        else:
            base = stmt.module or ""
        for alias in stmt.names:
            if alias.name == "*":
                continue
            bindings[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    return bindings


class Repository:
    """One project of the corpus: its package root and modules."""

    def __init__(self, project_path: str):
        self.project_path = project_path
        self.root = os.path.join(SOURCE_DIR, project_path)
        src = os.path.join(self.root, "src")
        self.package_root = src if os.path.isdir(src) else self.root
        self.module_paths: Dict[str, str] = {}
        for dirpath, dirnames, filenames in os.walk(self.package_root):
            dirnames[:] = sorted(d for d in dirnames if d not in ("tests", "__pycache__") and not d.startswith("."))
            for filename in sorted(filenames):
                if not filename.endswith(".py"):
                    continue
                path = os.path.join(dirpath, filename)
                name = self.module_name(path)
                if name:
                    self.module_paths[name] = path
        self._modules: Dict[str, ModuleInfo] = {}

    def module_name(self, path: str) -> Optional[str]:
        rel = os.path.relpath(path, self.package_root)
        if rel.startswith(".."):
            return None
        parts = rel[:-3].split(os.sep)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts) if parts else None

    def module(self, name: str) -> ModuleInfo:
        if name not in self._modules:
            self._modules[name] = ModuleInfo(self, name, self.module_paths[name])
        return self._modules[name]

    def split_module(self, dotted: str) -> Tuple[Optional[str], List[str]]:
        """Split a dotted name into the longest module prefix in this repository and the rest."""
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            candidate = ".".join(parts[:cut])
            if candidate in self.module_paths:
                return candidate, parts[cut:]
        return None, parts

    def resolve(self, dotted: str, _depth: int = 0) -> Optional[str]:
        """Return the namespace where a dotted name is defined in this repository, following re-exports."""
        if _depth > 20:
            return None
        module_name, rest = self.split_module(dotted)
        if module_name is None:
            return None
        if not rest:
            return module_name
        module = self.module(module_name)
        head = rest[0]
        if head in module.definitions:
            if len(rest) == 1:
                return f"{module_name}.{head}"
            if head in module.classes:
                owner = self.class_member_owner(module_name, head, rest[1])
                if owner is not None and len(rest) == 2:
                    return f"{owner}.{rest[1]}"
            return None
        if head in module.imports:
            return self.resolve(".".join([module.imports[head]] + rest[1:]), _depth + 1)
        return None

    def class_member_owner(self, module_name: str, class_name: str, attr: str, _depth: int = 0) -> Optional[str]:
        """Return the namespace of the class (the given one or a base in this repository) defining attr."""
        if _depth > 20:
            return None
        info = self.module(module_name).classes.get(class_name)
        if info is None:
            return None
        if attr in info.members:
            return f"{module_name}.{class_name}"
        for base in info.bases:
            dotted = dotted_name(base)
            if dotted is None:
                continue
            base_ns = self.resolve_name_in_module(module_name, dotted)
            if base_ns is None:
                continue
            base_module, base_rest = self.split_module(base_ns)
            if base_module is None or len(base_rest) != 1:
                continue
            owner = self.class_member_owner(base_module, base_rest[0], attr, _depth + 1)
            if owner is not None:
                return owner
        return None

    def resolve_name_in_module(self, module_name: str, dotted: str) -> Optional[str]:
        """Resolve a dotted expression written at module level of module_name."""
        module = self.module(module_name)
        head, _, tail = dotted.partition(".")
        if head in module.definitions:
            return self.resolve(f"{module_name}.{dotted}")
        if head in module.imports:
            return self.resolve(module.imports[head] + (f".{tail}" if tail else ""))
        return None

    def is_class(self, namespace: str) -> bool:
        module_name, rest = self.split_module(namespace)
        return module_name is not None and len(rest) == 1 and rest[0] in self.module(module_name).classes

    def exists(self, namespace: str) -> bool:
        """Whether the namespace names a module, a module-level name or a class member here."""
        module_name, rest = self.split_module(namespace)
        if module_name is None:
            return False
        if not rest:
            return True
        module = self.module(module_name)
        if len(rest) == 1:
            return rest[0] in module.definitions
        if len(rest) == 2 and rest[0] in module.classes:
            return rest[1] in module.classes[rest[0]].members
        return False


def dotted_name(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted_name(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


class Target:
    """A function or method located in a module, with DevEval positions."""

    def __init__(self, repo: Repository, rel_file: str, qualname: str):
        self.repo = repo
        self.rel_file = rel_file
        self.qualname = qualname
        self.path = os.path.join(repo.root, rel_file)
        self.module_name = repo.module_name(self.path)
        if self.module_name is None or self.module_name not in repo.module_paths:
            raise ValueError(f"{rel_file} is not a module of {repo.project_path}")
        self.module = repo.module(self.module_name)
        self.node, self.class_node, self.conditional = self._locate()
        self.namespace = f"{self.module_name}.{qualname}"

    def _locate(self):
        parts = self.qualname.split(".")
        for stmt, conditional in iter_module_statements(self.module.tree):
            if len(parts) == 1 and isinstance(stmt, FUNCTION_NODES) and stmt.name == parts[0]:
                return stmt, None, conditional
            if len(parts) == 2 and isinstance(stmt, ast.ClassDef) and stmt.name == parts[0]:
                for member in stmt.body:
                    if isinstance(member, FUNCTION_NODES) and member.name == parts[1]:
                        return member, stmt, conditional
        raise ValueError(f"{self.qualname} not found in {self.rel_file}")

    @property
    def type(self) -> str:
        return "method" if self.class_node is not None else "function"

    @property
    def docstring_node(self) -> Optional[ast.Expr]:
        first = self.node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            return first
        return None

    @property
    def signature_position(self) -> List[int]:
        """From the first decorator (or the def) to the line of the colon that closes the header."""
        start = min([d.lineno for d in self.node.decorator_list] + [self.node.lineno])
        return [start, self.header_end_line()]

    def header_end_line(self) -> int:
        lines = self.module.source.splitlines(keepends=True)
        readline = iter(lines[self.node.lineno - 1:]).__next__
        depth = 0
        try:
            for tok in tokenize.generate_tokens(readline):
                if tok.type == tokenize.OP:
                    if tok.string in "([{":
                        depth += 1
                    elif tok.string in ")]}":
                        depth -= 1
                    elif tok.string == ":" and depth == 0:
                        return self.node.lineno + tok.start[0] - 1
        except (tokenize.TokenError, IndentationError, StopIteration):
            pass
        raise ValueError(f"cannot find the end of the signature of {self.namespace}")

    @property
    def body_position(self) -> List[int]:
        """From the line after the docstring (or the first statement) to the last line of the function."""
        docstring = self.docstring_node
        if docstring is not None:
            if len(self.node.body) == 1:
                raise ValueError(f"{self.namespace} has nothing but a docstring")
            return [docstring.end_lineno + 1, self.node.end_lineno]
        first = self.node.body[0]
        return [first.lineno, self.node.end_lineno]

    @property
    def indent(self) -> int:
        body = [s for s in self.node.body if s is not self.docstring_node]
        return body[0].col_offset

    def self_name(self) -> Optional[str]:
        positional = self.node.args.posonlyargs + self.node.args.args
        if self.class_node is None or not positional:
            return None
        for decorator in self.node.decorator_list:
            if dotted_name(decorator) == "staticmethod":
                return None
        return positional[0].arg

    # -- dependencies ---------------------------------------------------------------------

    def body_statements(self) -> List[ast.stmt]:
        return [s for s in self.node.body if s is not self.docstring_node]

    def local_bindings(self) -> Tuple[Set[str], Dict[str, str]]:
        """Names bound inside the function (parameters, assignments, ...) and its local imports."""
        local: Set[str] = set()
        imports: Dict[str, str] = {}
        globals_declared: Set[str] = set()

        def add_args(args: ast.arguments):
            for arg in args.posonlyargs + args.args + args.kwonlyargs:
                local.add(arg.arg)
            if args.vararg:
                local.add(args.vararg.arg)
            if args.kwarg:
                local.add(args.kwarg.arg)

        add_args(self.node.args)
        for stmt in self.body_statements():
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    local.add(node.id)
                elif isinstance(node, FUNCTION_NODES + (ast.ClassDef,)):
                    local.add(node.name)
                    if not isinstance(node, ast.ClassDef):
                        add_args(node.args)
                elif isinstance(node, ast.Lambda):
                    add_args(node.args)
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    local.add(node.name)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    imports.update(import_bindings(node, self.module.package_name))
                elif isinstance(node, ast.Global):
                    globals_declared.update(node.names)
                elif isinstance(node, ast.arg):
                    local.add(node.arg)
        local -= globals_declared
        local -= set(imports)
        return local, imports

    def category(self, namespace: str) -> str:
        module_name, rest = self.repo.split_module(namespace)
        if module_name == self.module_name and rest:
            if self.class_node is not None and len(rest) == 2 and rest[0] == self.class_node.name:
                return "intra_class"
            return "intra_file"
        return "cross_file"

    def auto_dependencies(self) -> Dict[str, List[str]]:
        """Dependencies visible from the syntax of the body: module-level names, imported repo
        names (and attributes of imported modules and classes), and self/cls attributes."""
        found: Set[str] = set()
        local, local_imports = self.local_bindings()
        self_name = self.self_name()
        class_name = self.class_node.name if self.class_node is not None else None
        repo = self.repo

        def resolve_head(name: str) -> Optional[str]:
            if name in local_imports:
                return repo.resolve(local_imports[name])
            if name in local:
                return None
            if name in self.module.definitions:
                return f"{self.module_name}.{name}"
            if name in self.module.imports:
                return repo.resolve(self.module.imports[name])
            return None

        own_class = f"{self.module_name}.{class_name}" if class_name else None
        own_class_bases = set()
        for stmt in self.body_statements():
            for node in ast.walk(stmt):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    if own_class is not None and resolve_head(node.value.id) == own_class:
                        own_class_bases.add(id(node.value))
        for stmt in self.body_statements():
            for node in ast.walk(stmt):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    base = node.value.id
                    if self_name is not None and base == self_name and base not in local_imports:
                        owner = repo.class_member_owner(self.module_name, class_name, node.attr)
                        if owner is not None:
                            found.add(f"{owner}.{node.attr}")
                        continue
                    head = resolve_head(base)
                    if head is None:
                        continue
                    if head == own_class:
                        owner = repo.class_member_owner(self.module_name, class_name, node.attr)
                        if owner is not None:
                            found.add(f"{owner}.{node.attr}")
                        continue
                    module_name, rest = repo.split_module(head)
                    if not rest:
                        found.add(head)
                        member = repo.resolve(f"{head}.{node.attr}")
                        if member is not None:
                            found.add(member)
                    elif repo.is_class(head):
                        found.add(head)
                        owner = repo.class_member_owner(module_name, rest[0], node.attr)
                        if owner is not None:
                            found.add(f"{owner}.{node.attr}")
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    if (self_name is not None and node.id == self_name) or id(node) in own_class_bases:
                        continue
                    head = resolve_head(node.id)
                    if head is not None and head != self.namespace:
                        found.add(head)
        result: Dict[str, List[str]] = {kind: [] for kind in DEPENDENCY_KINDS}
        for namespace in found:
            result[self.category(namespace)].append(namespace)
        return {kind: sorted(names) for kind, names in result.items()}


def merge_dependencies(*groups: Dict[str, List[str]]) -> Dict[str, List[str]]:
    merged = {kind: set() for kind in DEPENDENCY_KINDS}
    for group in groups:
        for kind in DEPENDENCY_KINDS:
            merged[kind].update(group.get(kind, []))
    return {kind: sorted(names) for kind, names in merged.items()}


def build_sample(spec: dict, repos: Dict[str, Repository]) -> Tuple[dict, Target]:
    """Build one DevEval sample (keys in DevEval order) from a target spec."""
    project = spec["project"]
    repo = repos.setdefault(project, Repository(project))
    target = Target(repo, spec["file"], spec["name"])
    if target.docstring_node is None:
        raise ValueError(f"{target.namespace} has no docstring")
    extra = spec.get("extra_dependency", {})
    for kind, names in extra.items():
        if kind not in DEPENDENCY_KINDS:
            raise ValueError(f"{target.namespace}: unknown dependency kind {kind}")
        for name in names:
            if target.category(name) != kind:
                raise ValueError(f"{target.namespace}: {name} belongs in {target.category(name)}, not {kind}")
    dependency = merge_dependencies(target.auto_dependencies(), extra)
    for kind in DEPENDENCY_KINDS:
        dependency[kind] = [name for name in dependency[kind] if name != target.namespace]
    sample = {
        "namespace": target.namespace,
        "type": target.type,
        "project_path": project,
        "completion_path": f"{project}/{spec['file']}",
        "signature_position": target.signature_position,
        "body_position": target.body_position,
        "dependency": dependency,
        "requirement": {
            "Functionality": spec["functionality"],
            "Arguments": "\n".join(spec["arguments"]),
        },
        "tests": list(spec["tests"]),
        "indent": target.indent,
    }
    return sample, target
