"""JSON encoding of values that JSON cannot represent natively: dates, sets and bytes."""

import base64
import datetime
from typing import Any, Dict

TYPE_KEY = "$type"

DECODERS = {
    "datetime": datetime.datetime.fromisoformat,
    "date": datetime.date.fromisoformat,
    "set": set,
    "bytes": base64.b64decode,
}


def encode_value(value: Any) -> Dict[str, Any]:
    """Hook for json.dump(default=...): tag values that JSON cannot represent."""
    if isinstance(value, datetime.datetime):
        return {TYPE_KEY: "datetime", "value": value.isoformat()}
    if isinstance(value, datetime.date):
        return {TYPE_KEY: "date", "value": value.isoformat()}
    if isinstance(value, (set, frozenset)):
        return {TYPE_KEY: "set", "value": sorted(value, key=repr)}
    if isinstance(value, bytes):
        return {TYPE_KEY: "bytes", "value": base64.b64encode(value).decode("ascii")}
    raise TypeError(f"cannot serialize a {type(value).__name__}")


def decode_hook(obj: Dict[str, Any]) -> Any:
    """Hook for json.load(object_hook=...): turn tagged objects back into values."""
    if len(obj) == 2 and TYPE_KEY in obj and "value" in obj:
        decoder = DECODERS.get(obj[TYPE_KEY])
        if decoder is not None:
            return decoder(obj["value"])
    return obj
