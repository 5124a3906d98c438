"""What the hand-written value classes share in place of dataclasses (issue 25, speed).

Making a dataclass costs its module's import ~0.4 ms (``dataclasses`` writes its methods
as source and ``exec``s it), at every start, compiled or not: 28 of them made a tenth of
a check's start-up. The record's and the games' value classes are written by hand
instead: an ``__init__``, and ``__eq__``, ``__repr__`` or ``__hash__`` only where
something uses them, from a tuple of field names and these two functions."""

from __future__ import annotations


def field_values(instance: object, names: tuple[str, ...]) -> tuple[object, ...]:
    """The values of the fields ``names``, in order: what equality compares and a hash hashes."""
    return tuple([getattr(instance, name) for name in names])


def fields_repr(instance: object, names: tuple[str, ...]) -> str:
    """``Class(name=value, ...)``, as a dataclass writes itself."""
    shown = ", ".join([f"{name}={getattr(instance, name)!r}" for name in names])
    return f"{instance.__class__.__qualname__}({shown})"
