import unittest

from unitcalc import convert, convert_temperature
from unitcalc.errors import DimensionError
from unitcalc.units import UnitRegistry


class TestConvert(unittest.TestCase):
    def test_expressions(self):
        self.assertAlmostEqual(convert(100, "km/h", "m/s"), 27.777777777, places=6)
        self.assertAlmostEqual(convert(1, "L", "cm^3"), 1000.0)

    def test_unit_objects_and_registry(self):
        registry = UnitRegistry()
        self.assertAlmostEqual(convert(3, registry.get("ft"), registry.get("in"), registry), 36.0)

    def test_affine(self):
        self.assertAlmostEqual(convert(-40, "degC", "degF"), -40.0)

    def test_incompatible(self):
        with self.assertRaises(DimensionError):
            convert(1, "kg", "m")


class TestConvertTemperature(unittest.TestCase):
    def test_scales(self):
        self.assertAlmostEqual(convert_temperature(100, "c", "F"), 212.0)
        self.assertAlmostEqual(convert_temperature(0, "K", "C"), -273.15)
        self.assertAlmostEqual(convert_temperature(50, "F", "F"), 50.0)

    def test_unknown_scale(self):
        with self.assertRaises(ValueError):
            convert_temperature(1, "R", "K")


if __name__ == "__main__":
    unittest.main()
