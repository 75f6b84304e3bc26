"""Parsing of unit expressions and quantity strings."""

from .lexer import Token, tokenize
from .parser import UnitParser, parse_quantity, parse_unit

__all__ = ["Token", "UnitParser", "parse_quantity", "parse_unit", "tokenize"]
