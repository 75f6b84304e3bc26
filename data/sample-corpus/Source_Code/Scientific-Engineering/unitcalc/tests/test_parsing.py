import unittest

from unitcalc.errors import ParseError, UnknownUnitError
from unitcalc.parsing import UnitParser, parse_quantity, parse_unit, tokenize
from unitcalc.parsing.lexer import insert_implicit_operators
from unitcalc.units import UnitRegistry


class TestTokenize(unittest.TestCase):
    def test_operators_and_names(self):
        kinds = [tok.kind for tok in tokenize("kg*m/s^2")]
        self.assertEqual(kinds, ["NAME", "OP", "NAME", "OP", "NAME", "OP", "NUMBER"])

    def test_implicit_multiplication_and_exponent(self):
        self.assertEqual([tok.text for tok in tokenize("N m")], ["N", "*", "m"])
        self.assertEqual([tok.text for tok in tokenize("m2 s-1")], ["m", "^", "2", "*", "s", "^", "-1"])

    def test_positions_and_errors(self):
        self.assertEqual([tok.position for tok in tokenize("(m)")], [0, 1, 2])
        with self.assertRaises(ParseError) as ctx:
            tokenize("m$")
        self.assertEqual(ctx.exception.position, 1)

    def test_insert_implicit_operators_idempotent(self):
        tokens = tokenize("kg m")
        self.assertEqual([t.text for t in insert_implicit_operators(tokens)], ["kg", "*", "m"])


class TestUnitParser(unittest.TestCase):
    def setUp(self):
        self.parser = UnitParser(UnitRegistry())

    def test_parse_compound(self):
        unit = self.parser.parse("kg*m/s^2")
        self.assertEqual(str(unit.dimension), "L*M*T^-2")
        self.assertEqual(unit.symbol, "kg*m/s^2")

    def test_parse_parentheses(self):
        unit = self.parser.parse("kg/(m*s)")
        self.assertEqual(unit.dimension.as_dict(), {"length": -1, "mass": 1, "time": -1})

    def test_parse_errors(self):
        with self.assertRaises(ParseError):
            self.parser.parse("")
        with self.assertRaises(ParseError):
            self.parser.parse("m^")
        with self.assertRaises(ParseError):
            self.parser.parse("(m*s")
        with self.assertRaises(ParseError):
            self.parser.parse("m)")
        with self.assertRaises(UnknownUnitError):
            self.parser.parse("furlong")


class TestParseUnit(unittest.TestCase):
    def test_registered_symbol_shortcut(self):
        self.assertEqual(parse_unit(" degC ").name, "celsius")

    def test_expression(self):
        self.assertAlmostEqual(parse_unit("km/h").factor, 1000 / 3600)

    def test_custom_registry(self):
        registry = UnitRegistry(with_defaults=False)
        with self.assertRaises(UnknownUnitError):
            parse_unit("m", registry)


class TestParseQuantity(unittest.TestCase):
    def test_value_and_unit(self):
        quantity = parse_quantity("3.5 km/h")
        self.assertEqual(quantity.value, 3.5)
        self.assertEqual(quantity.unit.symbol, "km/h")

    def test_scientific_and_dimensionless(self):
        self.assertEqual(parse_quantity("-1.5e3 mA").value, -1500.0)
        self.assertTrue(parse_quantity("42").unit.is_one)

    def test_invalid(self):
        with self.assertRaises(ParseError):
            parse_quantity("km 3")


if __name__ == "__main__":
    unittest.main()
