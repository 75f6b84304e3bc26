"""The Unit type: a scale factor and offset relative to a coherent SI unit."""

from dataclasses import dataclass

from ..dimensions import DIMENSIONLESS, Dimension
from ..errors import DimensionError


@dataclass(frozen=True)
class Unit:
    """A unit of measurement; value_in_si = value * factor + offset."""

    symbol: str
    factor: float
    dimension: Dimension = DIMENSIONLESS
    offset: float = 0.0
    name: str = ""

    @property
    def is_affine(self) -> bool:
        """Whether the unit has a zero-point offset, like degrees Celsius."""
        return self.offset != 0.0

    @property
    def is_one(self) -> bool:
        """Whether this is the plain dimensionless unit."""
        return self.dimension.is_dimensionless and self.factor == 1.0 and not self.is_affine

    def to_base(self, value: float) -> float:
        """Convert a value in this unit to the coherent SI unit."""
        return value * self.factor + self.offset

    def from_base(self, value: float) -> float:
        """Convert a value in the coherent SI unit to this unit."""
        return (value - self.offset) / self.factor

    def is_compatible(self, other: "Unit") -> bool:
        """Whether both units measure the same dimension."""
        return self.dimension == other.dimension

    def __mul__(self, other: "Unit") -> "Unit":
        _check_not_affine(self, other)
        if other.is_one:
            return self
        if self.is_one:
            return other
        return Unit(
            f"{self.symbol}*{other.symbol}",
            self.factor * other.factor,
            self.dimension * other.dimension,
        )

    def __truediv__(self, other: "Unit") -> "Unit":
        _check_not_affine(self, other)
        if other.is_one:
            return self
        denominator = other.symbol if "*" not in other.symbol and "/" not in other.symbol else f"({other.symbol})"
        return Unit(
            f"{self.symbol}/{denominator}",
            self.factor / other.factor,
            self.dimension / other.dimension,
        )

    def __pow__(self, power: int) -> "Unit":
        _check_not_affine(self)
        if power == 1:
            return self
        return Unit(f"{self.symbol}^{power}", self.factor ** power, self.dimension ** power)


ONE = Unit("1", 1.0, DIMENSIONLESS, name="one")


def _check_not_affine(*units: Unit) -> None:
    """Raise DimensionError when one of the units has a zero-point offset."""
    for unit in units:
        if unit.is_affine:
            raise DimensionError(f"cannot combine or scale affine unit {unit.symbol!r}")


def conversion_factor(source: Unit, target: Unit) -> float:
    """Return the factor that converts values from source to target (non-affine units)."""
    if not source.is_compatible(target):
        raise DimensionError(f"cannot convert {source.symbol} ({source.dimension}) to {target.symbol} ({target.dimension})")
    _check_not_affine(source, target)
    return source.factor / target.factor
