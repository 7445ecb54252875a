"""The argument checks (prefstats.checks): what each accepts, what it rejects, and that the error
names the argument and the bad value."""

from __future__ import annotations

import numpy as np
import pytest

from prefstats.checks import (
    WrongType,
    choice,
    finite,
    flag,
    integer,
    is_int,
    positive,
    probability,
    seat,
)


def test_is_int_takes_ints_and_numpy_integers_but_not_bools():
    assert is_int(0) and is_int(-3) and is_int(np.int64(5)) and is_int(np.uint32(7))
    assert not any(is_int(v) for v in (True, False, np.bool_(True), 1.0, "1", None))


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("n", 3), 3),
        (("n", np.int8(-2)), -2),
        (("n", 0, 0, 10), 0),
        (("n", 10, 0, 10), 10),
        (("n", 4, 1), 4),
        (("n", -4, None, 0), -4),
    ],
)
def test_integer_returns_a_plain_int(args, expected):
    value = integer(*args)
    assert value == expected and type(value) is int


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("tricks", 11, 0, 10), ValueError, "tricks must be an integer in 0..10, got 11"),
        (("tricks", -1, 0, 10), ValueError, "tricks must be an integer in 0..10, got -1"),
        (("deals", 0, 1), ValueError, "deals must be an integer >= 1, got 0"),
        (("seed", -1, 0), ValueError, "seed must be a non-negative integer, got -1"),
        (("gap", 3, None, 2), ValueError, "gap must be an integer <= 2, got 3"),
        (("tricks", True, 0, 10), WrongType, "tricks must be an integer in 0..10, got True"),
        (("tricks", 2.5), WrongType, "tricks must be an integer, got 2.5"),
        (("tricks", "7"), WrongType, "tricks must be an integer, got '7'"),
    ],
)
def test_integer_names_the_argument_and_the_value(args, error, message):
    with pytest.raises(error) as raised:
        integer(*args)
    assert str(raised.value) == message


def test_a_wrong_type_is_both_a_value_error_and_a_type_error():
    for call in (lambda: integer("n", "x"), lambda: positive("n", 1.0), lambda: flag("f", 1)):
        with pytest.raises(ValueError):
            call()
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError) as raised:
        integer("n", 5, 0, 3)
    assert not isinstance(raised.value, TypeError)  # a bad value of the right type


def test_positive():
    assert positive("samples", 1) == 1 and positive("samples", np.int64(9)) == 9
    for bad, shown in ((0, "0"), (-2, "-2"), (True, "True"), (1.5, "1.5"), (None, "None")):
        with pytest.raises(ValueError, match=f"^samples must be a positive integer, got {shown}$"):
            positive("samples", bad)


def test_seat():
    assert [seat("leader", s) for s in (0, 1, np.int64(2))] == [0, 1, 2]
    assert seat("seat", 3, seats=4) == 3
    for bad in (3, -1, True, 1.0, "0"):
        with pytest.raises(ValueError, match=r"^leader must be 0, 1 or 2 \(first, second or"):
            seat("leader", bad)
    with pytest.raises(ValueError, match=r"^seat must be 0, 1, 2 or 3, got 4$"):
        seat("seat", 4, seats=4)


def test_probability():
    assert [probability("p", v) for v in (0, 1, 0.25, np.float32(0.5))] == [0.0, 1.0, 0.25, 0.5]
    for bad in (-0.1, 1.01, float("nan"), True, "0.5", None):
        with pytest.raises(ValueError, match=r"^p must be a probability in \[0, 1\], got "):
            probability("p", bad)


def test_finite():
    assert finite("x", -3) == -3.0 and finite("x", 2.5) == 2.5
    with pytest.raises(ValueError, match=r"^x must be a finite number, got inf$"):
        finite("x", float("inf"))
    with pytest.raises(WrongType, match=r"^x must be a number, got True$"):
        finite("x", True)


def test_flag():
    assert flag("misere", True) is True and flag("misere", np.bool_(False)) is False
    for bad in (0, 1, "yes", None):
        with pytest.raises(WrongType, match=r"^misere must be True or False, got "):
            flag("misere", bad)


def test_choice_returns_the_option_and_lists_them_all():
    assert choice("players", 3, (3, 4)) == 3 and choice("style", "ru", ("en", "ru")) == "ru"
    assert type(choice("players", np.int64(4), (3, 4))) is int
    with pytest.raises(ValueError, match=r"^players must be 3 or 4, got 2$"):
        choice("players", 2, (3, 4))
    with pytest.raises(ValueError, match=r"^players must be 3 or 4, got True$"):
        choice("players", True, (3, 4))  # True == 1 but is no player count
    with pytest.raises(ValueError, match=r"^style must be 'en' or 'ru', got 'de'$"):
        choice("style", "de", ("en", "ru"))
    with pytest.raises(ValueError, match="got array"):
        choice("style", np.array([1, 2]), (1, 2))
