"""The contract's random stream (record-format.md, "The random stream"), checked byte for byte."""

from __future__ import annotations

import hashlib

import pytest

from couyon.common.stream import Stream


def contract_block(seed: str, label: str, index: int) -> bytes:
    """B(i) = UTF8(seed) ‖ 0x00 ‖ UTF8(label) ‖ 0x00 ‖ u32_big_endian(i), written out again from the contract."""
    return seed.encode() + b"\x00" + label.encode() + b"\x00" + index.to_bytes(4, "big")


def test_stream_is_sha256_blocks_read_as_big_endian_u32() -> None:
    """Contract: stream(seed, label) = SHA256(B(0)) ‖ SHA256(B(1)) ‖ …, read four bytes at a time, big-endian."""
    seed, label = "graine ✓", "deal:7"
    expected_bytes = b"".join(hashlib.sha256(contract_block(seed, label, i)).digest() for i in range(3))
    expected = [int.from_bytes(expected_bytes[i : i + 4], "big") for i in range(0, len(expected_bytes), 4)]
    stream = Stream(seed, label)
    assert [stream.next_u32() for _ in range(24)] == expected


def test_stream_of_empty_seed_and_label_has_known_first_values() -> None:
    """Contract: B(0) of an empty seed and label is six zero bytes; its SHA-256 starts b0f66adc 83641586."""
    stream = Stream("", "")
    assert [stream.next_u32() for _ in range(3)] == [0xB0F66ADC, 0x83641586, 0x65686681]


def test_uniform_rejects_values_at_or_above_the_last_multiple() -> None:
    """Contract: uniform(n) rejects x ≥ 2³² − (2³² mod n) and reads the next x; otherwise returns x mod n.

    Stream is compiled (scripts/compile.py), so no test subclass can script its values: the test reads a real
    stream's values and picks n around the first one, x > 2³¹. Then 2³² mod x = 2³² − x, so the limit is x itself
    and x is rejected; with n = x + 1 the limit is x + 1 and x is kept.
    """
    seed, label = next((f"rejection:{i}", "u") for i in range(64) if Stream(f"rejection:{i}", "u").next_u32() > 2**31)
    raw = Stream(seed, label)
    x = raw.next_u32()
    rest = [raw.next_u32() for _ in range(16)]
    assert Stream(seed, label).uniform(x) == next(value for value in rest if value < x)
    assert Stream(seed, label).uniform(x + 1) == x
    assert Stream(seed, label).uniform(3) == x % 3  # the limit for 3 is 2³² − 1: only 2³² − 1 itself is rejected
    assert Stream(seed, label).uniform(2**32) == x
    assert Stream(seed, label).uniform(1) == 0


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_uniform_refuses_n_outside_the_contract_range(n: int) -> None:
    """Contract: uniform(n) is defined for 1 ≤ n ≤ 2³² only."""
    with pytest.raises(ValueError):
        Stream("s", "l").uniform(n)


def test_shuffle_is_fisher_yates_from_the_last_position_down() -> None:
    """Contract: for i = 23 … 1, j = uniform(i + 1), swap positions i and j."""
    expected = list(range(24))
    draws = Stream("seed", "deal:1")
    for i in range(23, 0, -1):
        j = draws.uniform(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    shuffled = list(range(24))
    Stream("seed", "deal:1").shuffle(shuffled)
    assert shuffled == expected


def test_random_choice_and_float_draw_from_the_stream() -> None:
    """Bots draw their choices from the contract's stream: same seed and label, same draws."""
    first, second = Stream("bot", "W:12"), Stream("bot", "W:12")
    floats = [first.random() for _ in range(50)]
    assert floats == [second.random() for _ in range(50)]
    assert all(0.0 <= value < 1.0 for value in floats)
    assert first.choice("abc") == second.choice("abc")
