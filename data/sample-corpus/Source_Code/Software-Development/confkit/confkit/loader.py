"""Load configuration from several sources, then merge, interpolate and validate it."""

import os
from collections.abc import Mapping
from typing import Any, Dict, Iterable, Optional, Type, Union

from confkit.interpolate import interpolate
from confkit.merge import deep_merge
from confkit.schema.model import Schema
from confkit.sources.argv import parse_overrides
from confkit.sources.env import load_env
from confkit.sources.ini import parse_ini

Source = Union[Mapping, str, "os.PathLike[str]"]


class Config(Mapping):
    """A read-only view of a configuration with item, dotted-path and attribute access."""

    def __init__(self, data: Dict[str, Any]):
        self._data = data

    def __getitem__(self, key: str) -> Any:
        value = self._data[key]
        return Config(value) if isinstance(value, dict) else value

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no configuration key {name!r}") from None

    def get_path(self, dotted: str, default: Any = None) -> Any:
        """Return the value at a dotted path such as 'db.port', or the default."""
        node: Any = self._data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return Config(node) if isinstance(node, dict) else node

    def to_dict(self) -> Dict[str, Any]:
        """Return the underlying nested dict."""
        return self._data

    def __repr__(self) -> str:
        return f"Config({self._data!r})"


def read_ini_file(path, encoding: str = "utf-8") -> Dict[str, Dict[str, str]]:
    """Read and parse an INI file."""
    with open(path, encoding=encoding) as handle:
        return parse_ini(handle.read(), source=os.fspath(path))


def load_config(
    *sources: Source,
    env_prefix: Optional[str] = None,
    environ: Optional[Mapping] = None,
    overrides: Iterable[str] = (),
    schema: Optional[Type[Schema]] = None,
    interpolate_values: bool = True,
) -> Config:
    """Merge the sources (mappings or INI file paths), environment variables and overrides, then interpolate and validate."""
    layers = [source if isinstance(source, Mapping) else read_ini_file(source) for source in sources]
    if env_prefix:
        layers.append(load_env(env_prefix, environ))
    overrides = list(overrides)
    if overrides:
        layers.append(parse_overrides(overrides))
    merged = deep_merge({}, *layers)
    if interpolate_values:
        merged = interpolate(merged, environ=environ)
    if schema is not None:
        merged = schema.validate(merged)
    return Config(merged)
