"""Players' names: what a name may be (``valid_name``), and when two names look alike (``skeleton``).

A name is shown to everyone on the leaderboards, so it must be readable and must not pass for
someone else's:

- it is normalised with NFKC, so fullwidth ``Ｍａｒｉｅ`` is ``Marie``, ``ﬁ`` is ``fi`` and a
  mathematical bold letter is the letter;
- it holds 1–24 characters: letters, digits, spaces and ``- _ . '``, at least one of them a
  letter or a digit, and no invisible character (Unicode's default-ignorable code points,
  among them the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, which are "letters");
- its letters are of one script, or of Latin with Han and the Japanese kana, with Han and
  Bopomofo, or with Han and Hangul (Unicode TR39's "highly restrictive" level): ``Mаrie``
  with a Cyrillic ``а`` is refused whoever else plays;
- it may not look like the name of another player on a leaderboard: two names look alike
  when their ``skeleton`` is the same (``refuse_lookalike``, which asks the store).

The skeleton follows TR39's: the name decomposed (NFD), every character replaced by the
Latin letter or digit it is commonly mistaken for, case folded, ``rn`` read as ``m`` and
``vv`` as ``w``, runs of spaces as one. Its table (``CONFUSABLES``) is a small part of
Unicode's confusables.txt: the Cyrillic, Greek, Armenian and Cherokee letters that look
like Latin letters or digits, ``0`` as ``o``, and ``i``, ``l``, ``I`` and ``1`` as one letter
(TR39 keeps ``i`` apart, but its skeleton is case-sensitive, and names differing only in
case are the same name here). Confusables between two other scripts, or with symbols a name
cannot hold anyway, are left out.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Protocol

from couyon.server.errors import ApiError

NAME_MAX = 24
_PUNCTUATION = frozenset(" -_.'")

_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges: characters that display as nothing."""

_SCRIPT_OF_FIRST_WORD = {
    "CJK": "Han",
    "IDEOGRAPHIC": "Han",
    "KANGXI": "Han",
    "HIRAGANA": "Hiragana",
    "KATAKANA": "Katakana",
    "HANGUL": "Hangul",
    "BOPOMOFO": "Bopomofo",
    "MODIFIER": None,
    "COMBINING": None,
}
_ALLOWED_MIXES = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)

# Each key looks like its value (a Latin letter or digit), in the same case where it has one.
_LOOKS_LATIN = {
    "a": "аɑαạ",
    "A": "АΑᎪ",
    "b": "Ьƅ",
    "B": "ВΒᏴ",
    "c": "сϲᴄ",
    "C": "СϹᏟ",
    "d": "ԁ",
    "e": "еҽ",
    "E": "ЕΕᎬ",
    "g": "ɡԍ",
    "h": "һ",
    "H": "НΗᎻ",
    "j": "јϳ",
    "J": "ЈᎫ",
    "k": "κк",
    "K": "КΚᏦ",
    "l": "iIіІӀӏιΙıǀ1|",  # i, l, I and 1 are one letter once case is folded
    "m": "м",
    "M": "МΜᎷ",
    "n": "ո",
    "N": "Ν",
    "o": "оοσօ0",
    "O": "ОΟՕ",
    "p": "рρ",
    "P": "РΡᏢ",
    "q": "ԛգ",
    "r": "г",
    "s": "ѕ",
    "S": "ЅᏚ",
    "t": "т",
    "T": "ТΤᎢ",
    "u": "υսц",
    "v": "νѵ",
    "V": "Ѵ",
    "w": "ԝѡ",
    "W": "ԜᎳ",
    "x": "хχ",
    "X": "ХΧ",
    "y": "уγү",
    "Y": "УΥҮ",
    "z": "ᴢ",
    "Z": "ΖᏃ",
    "3": "ЗӠ",
    "6": "б",
}
CONFUSABLES = {source: target for target, sources in _LOOKS_LATIN.items() for source in sources}
"""Character → the Latin letter or digit it is mistaken for (the skeleton's table; scope in the module's text)."""
_SEQUENCES = (("rn", "m"), ("vv", "w"))


class NameStore(Protocol):
    def name_skeleton_taken(self, skeleton: str, player_id: str) -> bool: ...


def _invisible(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def _script(char: str) -> str | None:
    """The script of a letter, from its Unicode name (``LATIN SMALL LETTER A``: Latin); None for digits and marks."""
    if not char.isalpha():
        return None
    try:
        first = re.split(r"[ -]", unicodedata.name(char))[0]
    except ValueError:
        return "Unknown"
    return _SCRIPT_OF_FIRST_WORD.get(first, first.title())


def _scripts_allowed(scripts: set[str]) -> bool:
    return len(scripts) <= 1 or any(scripts <= mix for mix in _ALLOWED_MIXES)


def valid_name(raw: str) -> str:
    """A player's name by the rules above (NFKC, outer spaces dropped); else 422 ``invalid_name`` in one sentence."""
    name = unicodedata.normalize("NFKC", raw).strip(" ")
    if not 1 <= len(name) <= NAME_MAX:
        raise ApiError(422, "invalid_name", f"A name has 1 to {NAME_MAX} characters.")
    if any(_invisible(char) for char in name):
        raise ApiError(422, "invalid_name", "A name may not hold invisible characters.")
    if not all(char.isalnum() or char in _PUNCTUATION for char in name):
        raise ApiError(422, "invalid_name", "A name may hold only letters, digits, spaces and - _ . '")
    if not any(char.isalnum() for char in name):
        raise ApiError(422, "invalid_name", "A name needs at least one letter or digit.")
    scripts = {script for script in map(_script, name) if script is not None}
    if not _scripts_allowed(scripts):
        mixed = " and ".join(", ".join(sorted(scripts)).rsplit(", ", 1))
        raise ApiError(422, "invalid_name", f"A name may not mix {mixed} letters.")
    return name


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons are names a reader can mistake for each other (TR39's idea)."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    text = "".join(CONFUSABLES.get(char, char) for char in text).casefold()
    text = unicodedata.normalize("NFD", text)
    for sequence, looks_like in _SEQUENCES:
        text = text.replace(sequence, looks_like)
    return " ".join(text.split())


def refuse_lookalike(store: NameStore, player_id: str, name: str) -> None:
    """422 ``invalid_name`` if another player on a leaderboard has a name that looks like ``name`` (or is it)."""
    if store.name_skeleton_taken(skeleton(name), player_id):
        raise ApiError(
            422, "invalid_name", "This name looks like the name of another player on the leaderboards: choose another."
        )
