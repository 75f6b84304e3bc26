import math
import unittest

from unitcalc.errors import DimensionError
from unitcalc.quantity import Quantity
from unitcalc.stats import Measurement, mean, stdev, weighted_mean


class TestMean(unittest.TestCase):
    def test_mixed_units(self):
        result = mean([Quantity(1, "m"), Quantity(200, "cm"), Quantity(3000, "mm")])
        self.assertEqual(result.unit.symbol, "m")
        self.assertAlmostEqual(result.value, 2.0)

    def test_empty(self):
        with self.assertRaises(ValueError):
            mean([])

    def test_stdev(self):
        result = stdev([Quantity(2, "s"), Quantity(4, "s"), Quantity(4, "s"), Quantity(4, "s"), Quantity(5, "s"), Quantity(5, "s"), Quantity(7, "s"), Quantity(9, "s")])
        self.assertAlmostEqual(result.value, 2.138089935, places=6)
        with self.assertRaises(ValueError):
            stdev([Quantity(1, "s")])


class TestMeasurement(unittest.TestCase):
    def test_relative_uncertainty(self):
        self.assertAlmostEqual(Measurement(10.0, 0.5, "m").relative_uncertainty, 0.05)
        self.assertEqual(Measurement(0.0, 0.5).relative_uncertainty, math.inf)

    def test_add_and_multiply(self):
        total = Measurement(1.0, 0.3, "m") + Measurement(2.0, 0.4, "m")
        self.assertAlmostEqual(total.uncertainty, 0.5)
        with self.assertRaises(DimensionError):
            Measurement(1.0, 0.1, "m") + Measurement(1.0, 0.1, "s")
        product = Measurement(2.0, 0.2, "m") * Measurement(3.0, 0.3, "m")
        self.assertAlmostEqual(product.value, 6.0)
        self.assertAlmostEqual(product.uncertainty, 6.0 * math.hypot(0.1, 0.1))
        self.assertEqual(product.unit, "m*m")

    def test_weighted_mean(self):
        result = weighted_mean([Measurement(10.0, 1.0, "g"), Measurement(12.0, 2.0, "g")])
        self.assertAlmostEqual(result.value, (10.0 + 12.0 / 4) / 1.25)
        self.assertAlmostEqual(result.uncertainty, math.sqrt(1 / 1.25))
        with self.assertRaises(DimensionError):
            weighted_mean([Measurement(1.0, 1.0, "g"), Measurement(1.0, 1.0, "kg")])
        with self.assertRaises(ValueError):
            weighted_mean([])


if __name__ == "__main__":
    unittest.main()
