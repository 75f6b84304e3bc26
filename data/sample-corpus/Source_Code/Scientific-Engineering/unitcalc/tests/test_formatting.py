import unittest

from unitcalc.formatting import ENGINEERING_PREFIXES, engineering, format_quantity
from unitcalc.quantity import Quantity


class TestFormatQuantity(unittest.TestCase):
    def test_with_symbol(self):
        self.assertEqual(format_quantity(Quantity(3.14159, "m/s")), "3.14 m/s")

    def test_precision_and_no_symbol(self):
        self.assertEqual(format_quantity(Quantity(2.0 / 3.0, "s"), 2, symbol=False), "0.67")
        self.assertEqual(format_quantity(Quantity(5)), "5")


class TestEngineering(unittest.TestCase):
    def test_prefixes(self):
        self.assertEqual(ENGINEERING_PREFIXES[3], "k")
        self.assertEqual(engineering(0.00123, "A"), "1.23 mA")
        self.assertEqual(engineering(4.7e6, "Hz"), "4.7 MHz")
        self.assertEqual(engineering(512, "W"), "512 W")

    def test_zero_and_clamping(self):
        self.assertEqual(engineering(0, "V"), "0 V")
        self.assertEqual(engineering(2e15, "J"), "2e+06 GJ")


if __name__ == "__main__":
    unittest.main()
