"""Convenience conversion functions over plain numbers."""

from typing import Optional, Union

from unitcalc.errors import DimensionError
from unitcalc.parsing.parser import parse_unit
from unitcalc.units.registry import UnitRegistry
from unitcalc.units.unit import Unit, conversion_factor

TEMPERATURE_SCALES = {"C": "degC", "F": "degF", "K": "K"}


def convert(
    value: float,
    source: Union[str, Unit],
    target: Union[str, Unit],
    registry: Optional[UnitRegistry] = None,
) -> float:
    """Convert a number between two units given as expressions or Unit objects."""
    if isinstance(source, str):
        source = parse_unit(source, registry)
    if isinstance(target, str):
        target = parse_unit(target, registry)
    if not source.is_compatible(target):
        raise DimensionError(f"cannot convert {source.symbol} to {target.symbol}")
    if source.is_affine or target.is_affine:
        return target.from_base(source.to_base(value))
    return value * conversion_factor(source, target)


def convert_temperature(value: float, source: str, target: str) -> float:
    """Convert a temperature between the 'C', 'F' and 'K' scales."""
    try:
        source_unit = TEMPERATURE_SCALES[source.upper()]
        target_unit = TEMPERATURE_SCALES[target.upper()]
    except KeyError as exc:
        raise ValueError(f"unknown temperature scale: {exc.args[0]}") from None
    return convert(value, source_unit, target_unit)
