"""A download written to a temporary file beside its target, renamed into place only once complete."""

from __future__ import annotations

import os
import tempfile
from typing import BinaryIO


class FileSink:
    """Receives the chunks of a download; ``path`` never holds a partial file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        handle, self._temporary = tempfile.mkstemp(prefix=".download-", dir=os.path.dirname(os.path.abspath(self.path)))
        self._file: BinaryIO = os.fdopen(handle, "wb")
        self.size = 0

    def write(self, chunk: bytes) -> None:
        self._file.write(chunk)
        self.size += len(chunk)

    def reset(self) -> None:
        """Starts over (before a retry of a download that broke off)."""
        self._file.seek(0)
        self._file.truncate()
        self.size = 0

    def commit(self) -> None:
        self._file.close()
        os.replace(self._temporary, self.path)

    def discard(self) -> None:
        self._file.close()
        if os.path.exists(self._temporary):
            os.unlink(self._temporary)
