"""What a new password must be: long enough, and none of those guessed first. An attacker
tries the most common passwords first (``password``, ``123456``, ``qwerty``, a name with a
year), with the digits and signs people add around them; so a password whose core (what is
left once digits, signs and spaces are taken off its ends, read in lower case and with
``@`` as ``a``, ``0`` as ``o`` ...) is on the list of common passwords
(``common_passwords.txt``), is a run of keys or letters, has fewer than four different
characters, or is the account's name, is refused with the reason."""

from __future__ import annotations

import functools
import string
from importlib import resources

SHORTEST = 10
LONGEST = 200
LIST = "common_passwords.txt"
_DECORATION = string.digits + string.punctuation + " "
_LEET = str.maketrans("@4$5013!7", "aassoieit")
# Runs along a keyboard's rows and columns and through the alphabet: any part of one, or
# of one backwards, is as good as known.
_RUNS = (
    "qwertyuiopasdfghjklzxcvbnm",
    "azertyuiopqsdfghjklmwxcvbn",
    "qwertzuiopasdfghjklyxcvbnm",
    "qazwsxedcrfvtgbyhnujmikolp",
    "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
    "abcdefghijklmnopqrstuvwxyz",
)


class WeakPassword(ValueError):
    """A new password refused by the policy: the message says why."""


@functools.cache
def common() -> frozenset[str]:
    """The list shipped with the package: one password a line, lower case; ``#`` starts a
    comment."""
    text = resources.files("hegemon.server").joinpath(LIST).read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(line for line in lines if line)


def _core(text: str) -> str:
    return text.lower().strip(_DECORATION)


def check(password: str) -> str:
    """`password` if the policy takes it as a new password; else WeakPassword, saying why.
    Its length is checked where it is read, its account's name by `check_not_named`."""
    core = _core(password)
    if len(set(core)) < 4:
        raise WeakPassword(
            "the password has too few different letters: digits, signs and repeats are "
            "guessed first"
        )
    if core in common() or _core(core.translate(_LEET)) in common():
        raise WeakPassword("the password is a common one (with or without digits or signs added)")
    if len(core) >= 4 and any(core in run or core in run[::-1] for run in _RUNS):
        raise WeakPassword("the password is a run of keys or letters")
    return password


def _letters(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalpha())


def check_not_named(password: str, name: str) -> None:
    """WeakPassword if `password` is the account's name (once or more, with or without
    digits or signs anywhere), the first thing tried against an account."""
    core, named = _letters(password), _letters(name)
    if named and core == named * (len(core) // len(named)):
        raise WeakPassword("the password is the account's name")
