"""A registry of named units with aliases and SI prefixes."""

from typing import Dict, Iterator, Optional

from ..errors import UnitError, UnknownUnitError
from .si import SI_PREFIXES, define_si_units
from .unit import Unit


class UnitRegistry:
    """Map unit symbols and aliases to Unit objects."""

    def __init__(self, *, with_defaults: bool = True):
        self._units: Dict[str, Unit] = {}
        self._aliases: Dict[str, str] = {}
        if with_defaults:
            define_si_units(self)

    def define(self, unit: Unit, *aliases: str, replace: bool = False) -> Unit:
        """Add a unit under its symbol and any number of aliases."""
        if unit.symbol in self._units and not replace:
            raise UnitError(f"unit already defined: {unit.symbol}")
        self._units[unit.symbol] = unit
        for alias in aliases:
            self._aliases[alias] = unit.symbol
        return unit

    def alias(self, alias: str, symbol: str) -> None:
        """Make alias another name of an already defined unit symbol."""
        if symbol not in self._units:
            raise UnknownUnitError(symbol)
        self._aliases[alias] = symbol

    def _lookup_prefixed(self, symbol: str) -> Optional[Unit]:
        """Resolve a symbol such as 'km' as an SI prefix followed by a defined unit."""
        for prefix in sorted(SI_PREFIXES, key=len, reverse=True):
            if not symbol.startswith(prefix) or len(symbol) == len(prefix):
                continue
            base = self._units.get(symbol[len(prefix):])
            if base is not None and not base.is_affine:
                return Unit(symbol, base.factor * SI_PREFIXES[prefix], base.dimension, name=prefix + base.name)
        return None

    def get(self, symbol: str) -> Unit:
        """Return the unit for a symbol, an alias or an SI-prefixed symbol."""
        symbol = symbol.strip()
        if symbol in self._units:
            return self._units[symbol]
        if symbol in self._aliases:
            return self._units[self._aliases[symbol]]
        unit = self._lookup_prefixed(symbol)
        if unit is None:
            raise UnknownUnitError(symbol)
        return unit

    def __contains__(self, symbol: str) -> bool:
        try:
            self.get(symbol)
        except UnknownUnitError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._units))

    def __len__(self) -> int:
        return len(self._units)


_default_registry: Optional[UnitRegistry] = None


def default_registry() -> UnitRegistry:
    """Return the process-wide registry, creating it on first use."""
    global _default_registry
    if _default_registry is None:
        _default_registry = UnitRegistry()
    return _default_registry
