"""unitcalc: physical units, quantities and conversions."""

from unitcalc.convert import convert, convert_temperature
from unitcalc.parsing.parser import parse_quantity, parse_unit
from unitcalc.quantity import Quantity
from unitcalc.units.registry import UnitRegistry, default_registry

__version__ = "1.2.0"

__all__ = [
    "Quantity",
    "UnitRegistry",
    "convert",
    "convert_temperature",
    "default_registry",
    "parse_quantity",
    "parse_unit",
]
