"""Configuration sources: INI text, environment variables, .env files and overrides."""

from .argv import parse_overrides
from .env import load_env, parse_dotenv
from .ini import parse_ini

__all__ = ["load_env", "parse_dotenv", "parse_ini", "parse_overrides"]
