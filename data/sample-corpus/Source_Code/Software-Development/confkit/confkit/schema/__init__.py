"""Declarative schemas made of typed fields."""

from .fields import Boolean, Field, Float, Integer, ListField, Section, String
from .model import Schema

__all__ = ["Boolean", "Field", "Float", "Integer", "ListField", "Schema", "Section", "String"]
