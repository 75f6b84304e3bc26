"""Exceptions raised by confkit."""

from typing import Dict


class ConfigError(Exception):
    """Base class of all confkit errors."""


class SourceError(ConfigError):
    """A configuration source could not be parsed."""

    def __init__(self, source: str, line: int, message: str):
        self.source = source
        self.line = line
        location = f"{source}:{line}" if line else source
        super().__init__(f"{location}: {message}")


class InterpolationError(ConfigError):
    """A ${...} reference could not be resolved."""


class ValidationError(ConfigError, ValueError):
    """Values did not match the schema; errors maps dotted keys to messages."""

    def __init__(self, errors: Dict[str, str]):
        self.errors = dict(errors)
        details = "; ".join(f"{key}: {message}" for key, message in sorted(self.errors.items()))
        super().__init__(f"invalid configuration: {details}")
