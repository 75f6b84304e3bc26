"""confkit: layered configuration loading, interpolation and validation."""

from confkit.errors import ConfigError, ValidationError
from confkit.loader import Config, load_config

__version__ = "1.4.0"

__all__ = ["Config", "ConfigError", "ValidationError", "load_config"]
