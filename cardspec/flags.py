"""Numeric command-line flags: whole numbers in the ASCII digits only (``cardspec``, ``cardspec conform`` and the
pytest plugin alike). A module of its own, light to import: the pytest plugin loads it in every test session."""

from __future__ import annotations

import argparse
import re

MAX_FLAG_DIGITS = 40
"""The most digits a numeric flag takes (a seed up to 10**40; every other flag has a far smaller range)."""
_ASCII_INTEGER = re.compile(rf"[-+]?[0-9]{{1,{MAX_FLAG_DIGITS}}}")


def ascii_int(text: str) -> int:
    """A numeric flag's value: a whole number in the ASCII digits 0 to 9 (``int()`` alone would also read
    ``٣`` as 3), at most :data:`MAX_FLAG_DIGITS` digits, maybe after a sign (``-`` or ``+``, as ``int()`` reads them).

    >>> ascii_int("12"), ascii_int("-3"), ascii_int("+3")
    (12, -3, 3)
    """
    if not _ASCII_INTEGER.fullmatch(text):
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise argparse.ArgumentTypeError(f"must be a whole number written in the digits 0 to 9 (at most "
                                         f"{MAX_FLAG_DIGITS} of them), got {shown!r}")
    return int(text)



_ASCII_DECIMAL = re.compile(r"[0-9]{1,12}(\.[0-9]{0,12})?|\.[0-9]{1,12}")


def ascii_seconds(text: str) -> float:
    """A time limit's value: a positive number of seconds in the ASCII digits, maybe with a decimal point
    (``float()`` alone would also read ``٣``, ``1e9``, ``inf`` and ``nan``).

    >>> ascii_seconds("60"), ascii_seconds("0.5"), ascii_seconds(".25")
    (60.0, 0.5, 0.25)
    """
    if not _ASCII_DECIMAL.fullmatch(text) or float(text) <= 0:
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds written in the digits 0 to 9, "
                                         f"got {shown!r}")
    return float(text)
