import unittest

from unitcalc.errors import DimensionError
from unitcalc.quantity import Quantity
from unitcalc.units import ONE, default_registry


class TestQuantityConversion(unittest.TestCase):
    def test_to_linear(self):
        self.assertAlmostEqual(Quantity(1.5, "km").to("m").value, 1500.0)
        self.assertAlmostEqual(Quantity(9.81, "m/s^2").to("ft/s^2").value, 32.18503937, places=6)

    def test_to_affine(self):
        self.assertAlmostEqual(Quantity(20, "degC").to("degF").value, 68.0)
        self.assertAlmostEqual(Quantity(0, "K").to("degC").value, -273.15)

    def test_to_incompatible(self):
        with self.assertRaises(DimensionError):
            Quantity(1, "m").to("s")

    def test_to_unit_object(self):
        gram = default_registry().get("g")
        self.assertEqual(Quantity(2, "kg").to(gram).unit, gram)


class TestQuantityArithmetic(unittest.TestCase):
    def test_add_keeps_left_unit(self):
        total = Quantity(1, "km") + Quantity(500, "m")
        self.assertEqual(total.unit.symbol, "km")
        self.assertAlmostEqual(total.value, 1.5)

    def test_add_numbers_to_dimensionless(self):
        self.assertEqual((Quantity(2) + 3).value, 5)
        self.assertEqual((3 + Quantity(2)).value, 5)
        with self.assertRaises(DimensionError):
            Quantity(1, "m") + 1

    def test_subtract_and_negate(self):
        self.assertAlmostEqual((Quantity(1, "h") - Quantity(30, "min")).value, 0.5)
        self.assertEqual((-Quantity(2, "s")).value, -2)

    def test_multiply_divide_power(self):
        area = Quantity(2, "m") * Quantity(3, "m")
        self.assertEqual(area.value, 6)
        self.assertEqual(area.dimension.as_dict(), {"length": 2})
        speed = Quantity(100, "km") / Quantity(2, "h")
        self.assertAlmostEqual(speed.to("m/s").value, 50 / 3.6)
        self.assertEqual((Quantity(3, "m") ** 2).unit.symbol, "m^2")
        self.assertEqual((2 * Quantity(4, "s")).value, 8)
        self.assertIs((Quantity(4, "s") * 2).unit, default_registry().get("s"))

    def test_comparisons(self):
        self.assertEqual(Quantity(1, "km"), Quantity(1000, "m"))
        self.assertNotEqual(Quantity(1, "km"), Quantity(1000, "s"))
        self.assertLess(Quantity(1, "ft"), Quantity(1, "m"))
        self.assertGreater(Quantity(1, "mi"), Quantity(1, "km"))
        self.assertEqual(Quantity(5, ONE), 5)
        self.assertNotEqual(Quantity(1, "m"), "1 m")

    def test_repr(self):
        self.assertEqual(repr(Quantity(2, "kg")), "Quantity(2, 'kg')")


if __name__ == "__main__":
    unittest.main()
