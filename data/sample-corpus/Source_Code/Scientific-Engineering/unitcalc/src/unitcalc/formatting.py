"""Human-friendly formatting of quantities."""

import math

from .quantity import Quantity
from .units.si import SI_PREFIXES

ENGINEERING_PREFIXES = {
    round(math.log10(factor)): prefix
    for prefix, factor in SI_PREFIXES.items()
    if round(math.log10(factor)) % 3 == 0
}
ENGINEERING_PREFIXES[0] = ""


def format_quantity(quantity: Quantity, precision: int = 3, *, symbol: bool = True) -> str:
    """Format the quantity as '<value> <unit>' with the given number of significant digits."""
    value = f"{quantity.value:.{precision}g}"
    if not symbol or quantity.unit.is_one:
        return value
    return f"{value} {quantity.unit.symbol}"


def engineering(value: float, unit_symbol: str = "", precision: int = 3) -> str:
    """Format the value with an SI prefix so that the mantissa lies in [1, 1000)."""
    if value == 0:
        return f"0 {unit_symbol}".strip()
    exponent = int(math.floor(math.log10(abs(value)) / 3) * 3)
    exponent = max(min(exponent, max(ENGINEERING_PREFIXES)), min(ENGINEERING_PREFIXES))
    mantissa = value / 10 ** exponent
    return f"{mantissa:.{precision}g} {ENGINEERING_PREFIXES[exponent]}{unit_symbol}".strip()
