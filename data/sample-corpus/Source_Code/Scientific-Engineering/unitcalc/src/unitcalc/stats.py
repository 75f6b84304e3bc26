"""Statistics over quantities and measurements with uncertainty propagation."""

import math
from dataclasses import dataclass
from typing import Sequence

from .errors import DimensionError
from .quantity import Quantity


@dataclass(frozen=True)
class Measurement:
    """A value with a standard uncertainty, in one unit."""

    value: float
    uncertainty: float
    unit: str = "1"

    @property
    def relative_uncertainty(self) -> float:
        """The uncertainty divided by the absolute value (infinite for a zero value)."""
        if self.value == 0:
            return math.inf
        return self.uncertainty / abs(self.value)

    def __add__(self, other: "Measurement") -> "Measurement":
        """Add two measurements of the same unit; uncertainties add in quadrature."""
        if other.unit != self.unit:
            raise DimensionError(f"cannot add {other.unit} to {self.unit}")
        return Measurement(self.value + other.value, math.hypot(self.uncertainty, other.uncertainty), self.unit)

    def __mul__(self, other: "Measurement") -> "Measurement":
        value = self.value * other.value
        relative = math.hypot(self.relative_uncertainty, other.relative_uncertainty)
        return Measurement(value, abs(value) * relative, f"{self.unit}*{other.unit}")


def mean(quantities: Sequence[Quantity]) -> Quantity:
    """Return the arithmetic mean of the quantities, in the unit of the first one."""
    if not quantities:
        raise ValueError("mean of an empty sequence")
    unit = quantities[0].unit
    total = sum(q.to(unit).value for q in quantities)
    return Quantity(total / len(quantities), unit)


def stdev(quantities: Sequence[Quantity]) -> Quantity:
    """Return the sample standard deviation of the quantities, in the unit of the first one."""
    if len(quantities) < 2:
        raise ValueError("stdev needs at least two values")
    center = mean(quantities)
    unit = center.unit
    squares = sum((q.to(unit).value - center.value) ** 2 for q in quantities)
    return Quantity(math.sqrt(squares / (len(quantities) - 1)), unit)


def weighted_mean(measurements: Sequence[Measurement]) -> Measurement:
    """Return the inverse-variance weighted mean of measurements that share one unit."""
    if not measurements:
        raise ValueError("weighted mean of an empty sequence")
    units = {m.unit for m in measurements}
    if len(units) != 1:
        raise DimensionError(f"measurements have different units: {sorted(units)}")
    weights = [1.0 / m.uncertainty ** 2 for m in measurements]
    total = sum(weights)
    value = sum(w * m.value for w, m in zip(weights, measurements)) / total
    return Measurement(value, math.sqrt(1.0 / total), measurements[0].unit)
