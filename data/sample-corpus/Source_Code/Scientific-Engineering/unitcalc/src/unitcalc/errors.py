"""Exceptions raised by unitcalc."""


class UnitError(Exception):
    """Base class of all unitcalc errors."""


class DimensionError(UnitError):
    """Raised when units of incompatible dimensions are combined or converted."""


class UnknownUnitError(UnitError, KeyError):
    """Raised when a unit symbol is not defined in the registry."""

    def __init__(self, symbol: str):
        super().__init__(symbol)
        self.symbol = symbol

    def __str__(self) -> str:
        return f"unknown unit: {self.symbol!r}"


class ParseError(UnitError, ValueError):
    """Raised when a unit expression or quantity string cannot be parsed."""

    def __init__(self, message: str, *, position: int = 0):
        super().__init__(f"{message} (at position {position})")
        self.position = position
