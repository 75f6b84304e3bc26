"""Recursive-descent parser for unit expressions and quantity strings.

Grammar::

    expr := term (('*' | '/') term)*
    term := atom ('^' NUMBER)?
    atom := NAME | '(' expr ')'
"""

import re
from typing import List, Optional

from ..errors import ParseError
from ..quantity import Quantity
from ..units.registry import UnitRegistry, default_registry
from ..units.unit import ONE, Unit
from .lexer import Token, tokenize

_QUANTITY_RE = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


class UnitParser:
    """Parse unit expressions against a registry."""

    def __init__(self, registry: Optional[UnitRegistry] = None):
        self.registry = default_registry() if registry is None else registry
        self.tokens: List[Token] = []
        self.pos = 0

    def parse(self, text: str) -> Unit:
        """Parse a complete unit expression and return the resulting unit."""
        self.tokens = tokenize(text)
        self.pos = 0
        if not self.tokens:
            raise ParseError("empty unit expression", position=0)
        unit = self._expr()
        if self.pos < len(self.tokens):
            tok = self.tokens[self.pos]
            raise ParseError(f"unexpected token {tok.text!r}", position=tok.position)
        return unit

    def _peek(self) -> Optional[Token]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _advance(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def _expr(self) -> Unit:
        unit = self._term()
        while True:
            tok = self._peek()
            if tok is None or tok.kind != "OP" or tok.text not in "*/":
                return unit
            self._advance()
            right = self._term()
            unit = unit * right if tok.text == "*" else unit / right

    def _term(self) -> Unit:
        """Parse an atom followed by an optional integer exponent."""
        unit = self._atom()
        tok = self._peek()
        if tok is not None and tok.kind == "OP" and tok.text == "^":
            self._advance()
            number = self._peek()
            if number is None or number.kind != "NUMBER":
                raise ParseError("expected an integer exponent after '^'", position=tok.position)
            self._advance()
            unit = unit ** int(number.text)
        return unit

    def _atom(self) -> Unit:
        tok = self._peek()
        if tok is None:
            raise ParseError("unexpected end of expression", position=len(self.tokens))
        if tok.kind == "NAME":
            self._advance()
            return self.registry.get(tok.text)
        if tok.kind == "LPAREN":
            self._advance()
            unit = self._expr()
            closing = self._peek()
            if closing is None or closing.kind != "RPAREN":
                raise ParseError("missing ')'", position=tok.position)
            self._advance()
            return unit
        raise ParseError(f"unexpected token {tok.text!r}", position=tok.position)


def parse_unit(text: str, registry: Optional[UnitRegistry] = None) -> Unit:
    """Parse a unit expression such as 'kg*m/s^2' into a Unit."""
    text = text.strip()
    if registry is None:
        registry = default_registry()
    if text in registry:
        return registry.get(text)
    return UnitParser(registry).parse(text)


def parse_quantity(text: str, registry: Optional[UnitRegistry] = None) -> Quantity:
    """Parse a string such as '3.5 km/h' into a Quantity."""
    match = _QUANTITY_RE.match(text)
    if match is None:
        raise ParseError(f"not a quantity: {text!r}", position=0)
    number, unit_text = match.groups()
    unit = parse_unit(unit_text, registry) if unit_text else ONE
    return Quantity(float(number), unit)
