"""Clubs, their tournaments and challenges: the rules of membership, deals and standings (``service``) and
their HTTP routes (``api``); docs/clubs.md."""
