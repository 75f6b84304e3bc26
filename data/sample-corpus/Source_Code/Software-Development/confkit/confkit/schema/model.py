"""Declarative schemas: classes whose attributes are fields."""

import copy
from typing import Any, Dict, List, Mapping

from ..errors import ValidationError
from .fields import Field, Section


class SchemaMeta(type):
    """Collect the fields of a schema class and of its bases into _fields."""

    def __new__(mcls, name, bases, namespace):
        cls = super().__new__(mcls, name, bases, namespace)
        fields: Dict[str, Field] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, "_fields", {}))
        fields.update({key: value for key, value in namespace.items() if isinstance(value, Field)})
        cls._fields = fields
        return cls


class Schema(metaclass=SchemaMeta):
    """Base class of configuration schemas; set strict = True to reject unknown keys."""

    strict = False
    _fields: Dict[str, Field] = {}

    @classmethod
    def fields(cls) -> Dict[str, Field]:
        """Return the fields of the schema by name."""
        return dict(cls._fields)

    @classmethod
    def validate(cls, data: Mapping[str, Any]) -> Dict[str, Any]:
        """Return the cleaned value of every field, reporting all problems in one ValidationError."""
        if not isinstance(data, Mapping):
            raise ValidationError({"": f"expected a mapping, got {type(data).__name__}"})
        cleaned: Dict[str, Any] = {}
        errors: Dict[str, str] = {}
        for name, field in cls._fields.items():
            if name in data:
                try:
                    cleaned[name] = field.clean(data[name])
                except ValidationError as exc:
                    errors.update(exc.errors)
            elif isinstance(field, Section):
                try:
                    cleaned[name] = field.clean({})
                except ValidationError as exc:
                    errors.update(exc.errors)
            elif field.required:
                errors[name] = "missing required value"
            else:
                cleaned[name] = copy.deepcopy(field.default)
        if cls.strict:
            for key in sorted(set(data) - set(cls._fields)):
                errors[key] = "unknown key"
        if errors:
            raise ValidationError(errors)
        return cleaned

    @classmethod
    def describe(cls) -> List[str]:
        """Return one line per field: name, type, default or 'required', and help."""
        lines = []
        for name, field in cls._fields.items():
            default = "required" if field.required else f"default={field.default!r}"
            line = f"{name} ({field.type_name}, {default})"
            if field.help:
                line += f": {field.help}"
            lines.append(line)
        return lines
