"""Tokenizer for unit expressions such as 'kg*m/s^2', 'N m' or 'm2'."""

from dataclasses import dataclass
from typing import List

from ..errors import ParseError

OPERATORS = "*/^"

OPERAND_END = ("NAME", "RPAREN")

OPERAND_START = ("NAME", "LPAREN")


@dataclass
class Token:
    """One lexical token with its kind, text and offset in the source."""

    kind: str
    text: str
    position: int


def tokenize(text: str) -> List[Token]:
    """Split a unit expression into NAME, NUMBER, OP, LPAREN and RPAREN tokens."""
    tokens = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isalpha() or ch == "_":
            start = i
            while i < len(text) and (text[i].isalpha() or text[i] == "_"):
                i += 1
            tokens.append(Token("NAME", text[start:i], start))
        elif ch.isdigit() or (ch == "-" and i + 1 < len(text) and text[i + 1].isdigit()):
            start = i
            i += 1
            while i < len(text) and text[i].isdigit():
                i += 1
            tokens.append(Token("NUMBER", text[start:i], start))
        elif ch in OPERATORS:
            tokens.append(Token("OP", ch, i))
            i += 1
        elif ch in "()":
            tokens.append(Token("LPAREN" if ch == "(" else "RPAREN", ch, i))
            i += 1
        else:
            raise ParseError(f"unexpected character {ch!r}", position=i)
    return insert_implicit_operators(tokens)


def insert_implicit_operators(tokens: List[Token]) -> List[Token]:
    """Insert '*' between adjacent operands ('N m') and '^' before a trailing exponent ('m2')."""
    result: List[Token] = []
    for tok in tokens:
        if result:
            previous = result[-1]
            if (previous.kind in OPERAND_END or previous.kind == "NUMBER") and tok.kind in OPERAND_START:
                result.append(Token("OP", "*", tok.position))
            elif previous.kind in OPERAND_END and tok.kind == "NUMBER":
                result.append(Token("OP", "^", tok.position))
        result.append(tok)
    return result
