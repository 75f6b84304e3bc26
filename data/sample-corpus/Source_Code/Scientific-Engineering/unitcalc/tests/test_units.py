import unittest

from unitcalc.dimensions import Dimension
from unitcalc.errors import DimensionError, UnitError, UnknownUnitError
from unitcalc.units import ONE, Unit, UnitRegistry, conversion_factor, default_registry


class TestUnit(unittest.TestCase):
    def setUp(self):
        self.registry = UnitRegistry()

    def test_multiply_and_divide(self):
        newton_metre = self.registry.get("N") * self.registry.get("m")
        self.assertEqual(newton_metre.symbol, "N*m")
        self.assertEqual(newton_metre.dimension, self.registry.get("J").dimension)
        speed = self.registry.get("km") / self.registry.get("h")
        self.assertEqual(speed.symbol, "km/h")
        self.assertAlmostEqual(speed.factor, 1000 / 3600)

    def test_one_is_neutral(self):
        metre = self.registry.get("m")
        self.assertIs(metre * ONE, metre)
        self.assertIs(ONE * metre, metre)
        self.assertIs(metre / ONE, metre)

    def test_power(self):
        area = self.registry.get("cm") ** 2
        self.assertEqual(area.symbol, "cm^2")
        self.assertAlmostEqual(area.factor, 1e-4)

    def test_affine_units_cannot_combine(self):
        with self.assertRaises(DimensionError):
            self.registry.get("degC") * self.registry.get("m")

    def test_base_round_trip(self):
        fahrenheit = self.registry.get("degF")
        self.assertAlmostEqual(fahrenheit.to_base(32.0), 273.15)
        self.assertAlmostEqual(fahrenheit.from_base(373.15), 212.0)


class TestConversionFactor(unittest.TestCase):
    def test_factor(self):
        registry = default_registry()
        self.assertAlmostEqual(conversion_factor(registry.get("km"), registry.get("m")), 1000.0)
        self.assertAlmostEqual(conversion_factor(registry.get("ft"), registry.get("in")), 12.0)

    def test_incompatible(self):
        registry = default_registry()
        with self.assertRaises(DimensionError):
            conversion_factor(registry.get("m"), registry.get("s"))

    def test_affine_rejected(self):
        registry = default_registry()
        with self.assertRaises(DimensionError):
            conversion_factor(registry.get("degC"), registry.get("K"))


class TestUnitRegistry(unittest.TestCase):
    def test_get_symbol_alias_and_prefix(self):
        registry = UnitRegistry()
        self.assertEqual(registry.get("metre").symbol, "m")
        self.assertEqual(registry.get(" s ").name, "second")
        millisecond = registry.get("ms")
        self.assertEqual(millisecond.name, "msecond")
        self.assertAlmostEqual(millisecond.factor, 1e-3)
        self.assertAlmostEqual(registry.get("kHz").factor, 1e3)

    def test_get_unknown(self):
        registry = UnitRegistry()
        with self.assertRaises(UnknownUnitError):
            registry.get("parsec")
        with self.assertRaises(UnknownUnitError):
            registry.get("kdegC")
        self.assertNotIn("parsec", registry)

    def test_define_and_alias(self):
        registry = UnitRegistry(with_defaults=False)
        self.assertEqual(len(registry), 0)
        parsec = registry.define(Unit("pc", 3.0857e16, Dimension.base("length")), "parsec")
        registry.alias("pcs", "pc")
        self.assertIs(registry.get("parsec"), parsec)
        self.assertIs(registry.get("pcs"), parsec)
        self.assertEqual(list(registry), ["pc"])
        with self.assertRaises(UnitError):
            registry.define(Unit("pc", 1.0))
        registry.define(Unit("pc", 1.0), replace=True)
        with self.assertRaises(UnknownUnitError):
            registry.alias("x", "nothing")

    def test_default_registry_is_shared(self):
        self.assertIs(default_registry(), default_registry())
        self.assertIn("lb", default_registry())


if __name__ == "__main__":
    unittest.main()
