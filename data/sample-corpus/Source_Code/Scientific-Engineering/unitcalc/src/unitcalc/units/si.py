"""SI prefixes and the default set of units."""

from ..dimensions import Dimension
from .unit import Unit

SI_PREFIXES = {
    "G": 1e9,
    "M": 1e6,
    "k": 1e3,
    "h": 1e2,
    "da": 1e1,
    "d": 1e-1,
    "c": 1e-2,
    "m": 1e-3,
    "u": 1e-6,
    "n": 1e-9,
    "p": 1e-12,
}

LENGTH = Dimension.base("length")
MASS = Dimension.base("mass")
TIME = Dimension.base("time")
CURRENT = Dimension.base("current")
TEMPERATURE = Dimension.base("temperature")
AMOUNT = Dimension.base("amount")


def define_si_units(registry) -> None:
    """Populate the registry with SI base and derived units and common non-SI units."""
    force = MASS * LENGTH / TIME ** 2
    energy = force * LENGTH
    registry.define(Unit("m", 1.0, LENGTH, name="metre"), "meter", "metre")
    registry.define(Unit("g", 1e-3, MASS, name="gram"), "gram")
    registry.define(Unit("kg", 1.0, MASS, name="kilogram"), "kilogram")
    registry.define(Unit("s", 1.0, TIME, name="second"), "sec", "second")
    registry.define(Unit("min", 60.0, TIME, name="minute"), "minute")
    registry.define(Unit("h", 3600.0, TIME, name="hour"), "hr", "hour")
    registry.define(Unit("A", 1.0, CURRENT, name="ampere"), "amp")
    registry.define(Unit("K", 1.0, TEMPERATURE, name="kelvin"), "kelvin")
    registry.define(Unit("degC", 1.0, TEMPERATURE, offset=273.15, name="celsius"), "celsius")
    registry.define(
        Unit("degF", 5.0 / 9.0, TEMPERATURE, offset=273.15 - 32.0 * 5.0 / 9.0, name="fahrenheit"),
        "fahrenheit",
    )
    registry.define(Unit("mol", 1.0, AMOUNT, name="mole"))
    registry.define(Unit("N", 1.0, force, name="newton"), "newton")
    registry.define(Unit("J", 1.0, energy, name="joule"), "joule")
    registry.define(Unit("W", 1.0, energy / TIME, name="watt"), "watt")
    registry.define(Unit("Pa", 1.0, force / LENGTH ** 2, name="pascal"))
    registry.define(Unit("Hz", 1.0, TIME ** -1, name="hertz"))
    registry.define(Unit("L", 1e-3, LENGTH ** 3, name="litre"), "l", "liter", "litre")
    registry.define(Unit("in", 0.0254, LENGTH, name="inch"), "inch")
    registry.define(Unit("ft", 0.3048, LENGTH, name="foot"), "foot", "feet")
    registry.define(Unit("mi", 1609.344, LENGTH, name="mile"), "mile")
    registry.define(Unit("lb", 0.45359237, MASS, name="pound"), "pound")
