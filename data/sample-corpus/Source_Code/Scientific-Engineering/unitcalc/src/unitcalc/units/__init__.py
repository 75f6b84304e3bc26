"""Unit definitions and the unit registry."""

from .registry import UnitRegistry, default_registry
from .unit import ONE, Unit, conversion_factor

__all__ = ["ONE", "Unit", "UnitRegistry", "conversion_factor", "default_registry"]
