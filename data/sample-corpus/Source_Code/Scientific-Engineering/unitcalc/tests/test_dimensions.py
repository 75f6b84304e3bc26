import unittest

from unitcalc.dimensions import DIMENSIONLESS, Dimension
from unitcalc.errors import DimensionError


class TestDimension(unittest.TestCase):
    def test_base(self):
        self.assertEqual(Dimension.base("time").as_dict(), {"time": 1})
        with self.assertRaises(DimensionError):
            Dimension.base("speed")

    def test_from_dict(self):
        accel = Dimension.from_dict({"length": 1, "time": -2})
        self.assertEqual(accel, Dimension.base("length") / Dimension.base("time") ** 2)
        with self.assertRaises(DimensionError):
            Dimension.from_dict({"colour": 1})

    def test_str(self):
        force = Dimension.from_dict({"mass": 1, "length": 1, "time": -2})
        self.assertEqual(str(force), "L*M*T^-2")
        self.assertEqual(str(DIMENSIONLESS), "1")
        self.assertEqual(str(Dimension.base("temperature")), "Theta")

    def test_is_dimensionless(self):
        length = Dimension.base("length")
        self.assertTrue((length / length).is_dimensionless)
        self.assertFalse(length.is_dimensionless)


if __name__ == "__main__":
    unittest.main()
