"""Storage in a JSON file, written atomically."""

import contextlib
import json
import os
import tempfile
from typing import Optional

from ..errors import StorageError
from ..serialization import decode_hook, encode_value
from .base import Data, Storage


class JSONStorage(Storage):
    """Keep the database in one JSON file."""

    def __init__(self, path, *, create_dirs: bool = False, indent: Optional[int] = None, encoding: str = "utf-8"):
        self.path = os.fspath(path)
        self.indent = indent
        self.encoding = encoding
        if create_dirs:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)

    def read(self) -> Optional[Data]:
        """Load the JSON document from the file; None when the file is missing or blank."""
        try:
            with open(self.path, encoding=self.encoding) as handle:
                text = handle.read()
        except FileNotFoundError:
            return None
        if not text.strip():
            return None
        try:
            return json.loads(text, object_hook=decode_hook)
        except json.JSONDecodeError as exc:
            raise StorageError(f"corrupt database file {self.path}: {exc}") from exc

    def write(self, data: Data) -> None:
        """Write atomically: dump into a temporary file next to the target, then replace it."""
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, tmp_path = tempfile.mkstemp(prefix=".tinystore-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding=self.encoding) as handle:
                json.dump(data, handle, indent=self.indent, sort_keys=True, default=encode_value)
            os.replace(tmp_path, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp_path)
            raise
