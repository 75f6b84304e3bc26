"""Typed configuration fields that coerce raw values (often strings) and validate them."""

from typing import Any, Callable, Iterable, Optional, Sequence

from ..errors import ValidationError

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})

FALSE_WORDS = frozenset({"0", "false", "no", "off"})

REQUIRED = object()


class Field:
    """A configuration value: a default (or required), coercion and validators."""

    type_name = "any"

    def __init__(self, default: Any = REQUIRED, *, validators: Sequence[Callable[[Any], None]] = (), help: str = ""):
        self.default = default
        self.validators = list(validators)
        self.help = help
        self.name: Optional[str] = None

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    @property
    def required(self) -> bool:
        """Whether the field has no default."""
        return self.default is REQUIRED

    def coerce(self, value: Any) -> Any:
        """Convert a raw value to the field type; the base field returns it unchanged."""
        return value

    def clean(self, value: Any) -> Any:
        """Coerce and validate the value; problems become a ValidationError keyed by the field name."""
        name = self.name or "?"
        try:
            value = self.coerce(value)
            for validator in self.validators:
                validator(value)
        except ValidationError as exc:
            raise ValidationError({f"{name}.{key}": message for key, message in exc.errors.items()}) from exc
        except (TypeError, ValueError) as exc:
            raise ValidationError({name: str(exc)}) from exc
        return value


class Integer(Field):
    """An integer, optionally bounded."""

    type_name = "int"

    def __init__(self, default: Any = REQUIRED, *, min_value: Optional[int] = None, max_value: Optional[int] = None, **kwargs):
        super().__init__(default, **kwargs)
        self.min_value = min_value
        self.max_value = max_value

    def coerce(self, value: Any) -> int:
        """Accept ints, integral floats and decimal strings (with '_' separators), then check the bounds."""
        if isinstance(value, bool):
            raise TypeError("expected an integer, got a boolean")
        if isinstance(value, float):
            if not value.is_integer():
                raise ValueError(f"expected an integer, got {value}")
            value = int(value)
        elif isinstance(value, str):
            value = int(value.strip().replace("_", ""))
        elif not isinstance(value, int):
            raise TypeError(f"expected an integer, got {type(value).__name__}")
        if self.min_value is not None and value < self.min_value:
            raise ValueError(f"{value} is less than the minimum {self.min_value}")
        if self.max_value is not None and value > self.max_value:
            raise ValueError(f"{value} is greater than the maximum {self.max_value}")
        return value


class Float(Field):
    """A floating-point number."""

    type_name = "float"

    def coerce(self, value: Any) -> float:
        """Accept numbers and numeric strings, but not booleans."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise TypeError(f"expected a number, got {type(value).__name__}")
        return float(value)


class Boolean(Field):
    """A boolean that understands words such as 'yes' and 'off'."""

    type_name = "bool"

    def coerce(self, value: Any) -> bool:
        """Accept booleans, 0 and 1, and the words of TRUE_WORDS and FALSE_WORDS in any case."""
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str):
            word = value.strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
        raise ValueError(f"cannot interpret {value!r} as a boolean")


class String(Field):
    """A string, optionally restricted to choices."""

    type_name = "str"

    def __init__(self, default: Any = REQUIRED, *, choices: Optional[Iterable[str]] = None, strip: bool = True, **kwargs):
        super().__init__(default, **kwargs)
        self.choices = frozenset(choices) if choices is not None else None
        self.strip = strip

    def coerce(self, value: Any) -> str:
        """Accept strings and numbers, strip them if asked and check the choices."""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise TypeError(f"expected a string, got {type(value).__name__}")
        text = str(value).strip() if self.strip else str(value)
        if self.choices is not None and text not in self.choices:
            raise ValueError(f"{text!r} is not one of {sorted(self.choices)}")
        return text


class ListField(Field):
    """A list of items of one field type; strings are split on a separator."""

    type_name = "list"

    def __init__(self, item: Optional[Field] = None, default: Any = REQUIRED, *, separator: str = ",", **kwargs):
        super().__init__(default, **kwargs)
        self.item = item if item is not None else String()
        self.separator = separator

    def coerce(self, value: Any) -> list:
        """Accept a list, a tuple or a separated string, and coerce every item."""
        if isinstance(value, str):
            value = [part for part in value.split(self.separator) if part.strip()]
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"expected a list, got {type(value).__name__}")
        return [self.item.coerce(item) for item in value]


class Section(Field):
    """A nested schema."""

    type_name = "section"

    def __init__(self, schema, **kwargs):
        kwargs.setdefault("default", {})
        super().__init__(**kwargs)
        self.schema = schema

    def coerce(self, value: Any) -> dict:
        """Validate the value with the nested schema."""
        return self.schema.validate(value)
