"""Quantities: a magnitude with a unit, supporting arithmetic and conversion."""

import functools
import math
from typing import Union

from .errors import DimensionError
from .units.registry import default_registry
from .units.unit import ONE, Unit, conversion_factor

Number = Union[int, float]


def _coerce(func):
    """Let a binary operator accept plain numbers as dimensionless quantities."""

    @functools.wraps(func)
    def wrapper(self, other):
        if isinstance(other, (int, float)):
            other = Quantity(other, ONE)
        if not isinstance(other, Quantity):
            return NotImplemented
        return func(self, other)

    return wrapper


def _resolve_unit(unit: Union[Unit, str]) -> Unit:
    """Return a Unit for a Unit object, a registered symbol or a unit expression."""
    if isinstance(unit, Unit):
        return unit
    registry = default_registry()
    if unit in registry:
        return registry.get(unit)
    # Imported here because the parser module imports this one.
    from .parsing.parser import parse_unit

    return parse_unit(unit, registry)


@functools.total_ordering
class Quantity:
    """A numeric value together with its unit."""

    __slots__ = ("value", "unit")

    def __init__(self, value: Number, unit: Union[Unit, str] = ONE):
        self.value = value
        self.unit = _resolve_unit(unit)

    def __repr__(self) -> str:
        return f"Quantity({self.value!r}, {self.unit.symbol!r})"

    @property
    def dimension(self):
        """The dimension of the quantity's unit."""
        return self.unit.dimension

    def to(self, target: Union[Unit, str]) -> "Quantity":
        """Convert the quantity to another unit of the same dimension."""
        target = _resolve_unit(target)
        if not self.unit.is_compatible(target):
            raise DimensionError(f"cannot convert {self.unit.symbol} to {target.symbol}")
        if self.unit.is_affine or target.is_affine:
            return Quantity(target.from_base(self.unit.to_base(self.value)), target)
        return Quantity(self.value * conversion_factor(self.unit, target), target)

    @_coerce
    def __add__(self, other: "Quantity") -> "Quantity":
        """Add a compatible quantity; the result keeps this quantity's unit."""
        return Quantity(self.value + other.to(self.unit).value, self.unit)

    __radd__ = __add__

    @_coerce
    def __sub__(self, other: "Quantity") -> "Quantity":
        return Quantity(self.value - other.to(self.unit).value, self.unit)

    @_coerce
    def __mul__(self, other: "Quantity") -> "Quantity":
        return Quantity(self.value * other.value, self.unit * other.unit)

    __rmul__ = __mul__

    @_coerce
    def __truediv__(self, other: "Quantity") -> "Quantity":
        return Quantity(self.value / other.value, self.unit / other.unit)

    def __pow__(self, power: int) -> "Quantity":
        return Quantity(self.value ** power, self.unit ** power)

    def __neg__(self) -> "Quantity":
        return Quantity(-self.value, self.unit)

    @_coerce
    def __eq__(self, other: "Quantity") -> bool:
        """Compare with a compatible quantity after conversion, with a relative tolerance."""
        if not self.unit.is_compatible(other.unit):
            return False
        return math.isclose(self.value, other.to(self.unit).value, rel_tol=1e-9, abs_tol=1e-12)

    @_coerce
    def __lt__(self, other: "Quantity") -> bool:
        return self.value < other.to(self.unit).value

    __hash__ = None
