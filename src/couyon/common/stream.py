"""The contract's deterministic random stream (record-format.md, "The random stream").

``stream(seed, label)`` is SHA256(B(0)) ‖ SHA256(B(1)) ‖ … with
B(i) = UTF8(seed) ‖ 0x00 ‖ UTF8(label) ‖ 0x00 ‖ u32_be(i), read as big-endian u32s.
Deals, the first dealer and the bots' choices all draw from it, so a game replays the
same on any machine.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

T = TypeVar("T")

# Final: compiled (scripts/compile.py), a Final name is a C static, where a plain global is a dictionary lookup.
_TWO_32: Final = 1 << 32
_EIGHT_U32: Final = struct.Struct(">8I")
_SHA256: Final = hashlib.sha256


class Stream:
    """A reader of ``stream(seed, label)``; every draw consumes it front to back."""

    __slots__ = ("_block", "_buffer", "_position", "_prefix")

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = seed.encode("utf-8") + b"\x00" + label.encode("utf-8") + b"\x00"
        self._block = 0
        self._buffer: tuple[int, ...] = ()
        self._position = 0

    def next_u32(self) -> int:
        """The next unsigned 32-bit big-endian integer of the stream."""
        if self._position == len(self._buffer):
            digest = _SHA256(self._prefix + self._block.to_bytes(4, "big")).digest()
            self._buffer = _EIGHT_U32.unpack(digest)
            self._block += 1
            self._position = 0
        value = self._buffer[self._position]
        self._position += 1
        return value

    def uniform(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection as the contract specifies."""
        if not 1 <= n <= _TWO_32:
            raise ValueError(f"uniform(n) needs 1 <= n <= 2**32, got {n}")
        limit = _TWO_32 - (_TWO_32 % n)
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1) built from 53 bits of the stream."""
        high = self.next_u32() >> 5
        low = self.next_u32() >> 6
        return (high * 67108864.0 + low) / 9007199254740992.0

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.uniform(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place, from the last position down, as the contract's shuffle."""
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
