"""Physical dimensions as integer exponent vectors over the SI base dimensions."""

from dataclasses import dataclass
from typing import Dict, Mapping, Tuple

from .errors import DimensionError

BASE_DIMENSIONS = ("length", "mass", "time", "current", "temperature", "amount", "luminosity")

SYMBOLS = {
    "length": "L",
    "mass": "M",
    "time": "T",
    "current": "I",
    "temperature": "Theta",
    "amount": "N",
    "luminosity": "J",
}


@dataclass(frozen=True)
class Dimension:
    """Exponents of the seven SI base dimensions."""

    exponents: Tuple[int, ...] = (0,) * len(BASE_DIMENSIONS)

    @classmethod
    def base(cls, name: str) -> "Dimension":
        """Return the dimension of one base quantity, such as 'length'."""
        if name not in BASE_DIMENSIONS:
            raise DimensionError(f"unknown base dimension: {name}")
        return cls(tuple(1 if base == name else 0 for base in BASE_DIMENSIONS))

    @classmethod
    def from_dict(cls, mapping: Mapping[str, int]) -> "Dimension":
        """Build a dimension from a mapping of base dimension names to exponents."""
        unknown = set(mapping) - set(BASE_DIMENSIONS)
        if unknown:
            raise DimensionError(f"unknown base dimensions: {sorted(unknown)}")
        return cls(tuple(int(mapping.get(name, 0)) for name in BASE_DIMENSIONS))

    def __mul__(self, other: "Dimension") -> "Dimension":
        return Dimension(tuple(a + b for a, b in zip(self.exponents, other.exponents)))

    def __truediv__(self, other: "Dimension") -> "Dimension":
        return Dimension(tuple(a - b for a, b in zip(self.exponents, other.exponents)))

    def __pow__(self, power: int) -> "Dimension":
        return Dimension(tuple(a * power for a in self.exponents))

    @property
    def is_dimensionless(self) -> bool:
        """Whether every exponent is zero."""
        return not any(self.exponents)

    def as_dict(self) -> Dict[str, int]:
        """Return the non-zero exponents keyed by base dimension name."""
        return {name: exp for name, exp in zip(BASE_DIMENSIONS, self.exponents) if exp}

    def __str__(self) -> str:
        """Render the dimension like 'L*T^-2', or '1' when dimensionless."""
        if self.is_dimensionless:
            return "1"
        parts = []
        for name, exp in zip(BASE_DIMENSIONS, self.exponents):
            if exp == 0:
                continue
            symbol = SYMBOLS[name]
            parts.append(symbol if exp == 1 else f"{symbol}^{exp}")
        return "*".join(parts)


DIMENSIONLESS = Dimension()
