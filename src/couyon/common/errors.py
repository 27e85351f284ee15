"""The refusals every game raises: one clear sentence each, the server maps them to HTTP statuses."""

from __future__ import annotations


class CouyonError(ValueError):
    """Base of every error about a move or a record; its message is one clear sentence."""


class InvalidMoveError(CouyonError):
    """A move that cannot even be read: not ``SEAT:ACTION``, an unknown seat, action or card."""


class IllegalMoveError(CouyonError):
    """A well-formed move that the rules forbid in this position."""


class OutOfTurnError(IllegalMoveError):
    """A move by a seat whose turn it is not."""


class GameOverError(IllegalMoveError):
    """A move after the game has ended."""


class ReplayError(CouyonError):
    """A move of a list that could not be applied; ``index`` is its 0-based position."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index
