"""Tool options: their names and types, CLI text -> value, and checks of given values.

Every option a reader understands has one type here, whatever the tool:

* ``from_name`` (str): Label Studio control to analyse;
* ``include_predictions`` (bool): Label Studio model predictions as annotators;
* ``multilabel`` (bool, or None = auto: decide from the data): Label Studio, Prodigy,
  Mechanical Turk;
* ``annotator_key`` (str): Prodigy field naming the annotator;
* ``answer`` (str): Mechanical Turk / Toloka question to analyse;
* ``item_columns`` (list[str]; a single name is accepted): Mechanical Turk / Toloka
  input columns that identify an item.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from analytics._core.errors import AnnotationDataError
from analytics.data.importers.base import ToolReader

__all__ = ["OPTION_TYPES", "ToolOption", "build_options", "check_option", "parse_option"]

#: type of each option name, and whether None ("auto": decide from the data) is allowed
OPTION_TYPES: dict[str, tuple[str, bool]] = {
    "from_name": ("str", False),
    "include_predictions": ("bool", False),
    "multilabel": ("bool", True),
    "annotator_key": ("str", False),
    "answer": ("str", False),
    "item_columns": ("list[str]", False),
}
TRUE = ("true", "yes", "1", "on")
FALSE = ("false", "no", "0", "off")
AUTO = "auto"


@dataclass(frozen=True)
class ToolOption:
    """One tool option.

    Attributes
    ----------
    name
        The option's key in ``tool_options``.
    type
        ``"bool"``, ``"int"``, ``"str"`` or ``"list[str]"`` (a list of column names; a
        single name is accepted too).
    tools
        The tools whose reader understands it.
    help
        What it does, per tool.
    auto
        True when None is allowed: decide from the data (the default).
    """

    name: str
    type: str
    tools: tuple[str, ...]
    help: dict[str, str] = field(default_factory=dict)
    auto: bool = False


def build_options(readers: Iterable[ToolReader]) -> dict[str, ToolOption]:
    """The options of all readers, each with its type (a reader option without one is a bug).

    Parameters
    ----------
    readers : iterable of ToolReader
        The tool readers.

    Returns
    -------
    dict of str to ToolOption
    """
    out: dict[str, ToolOption] = {}
    for reader in readers:
        for key, text in reader.options.items():
            if key not in OPTION_TYPES:  # pragma: no cover - caught by the tests at import
                raise TypeError(f"the {reader.name} option {key!r} has no type in OPTION_TYPES")
            kind, auto = OPTION_TYPES[key]
            old = out.get(key, ToolOption(key, kind, (), {}, auto))
            tools = old.tools if reader.name in old.tools else (*old.tools, reader.name)
            out[key] = ToolOption(key, kind, tools, {**old.help, reader.name: text}, auto)
    return out


def _unknown(key: str, options: Mapping[str, ToolOption]) -> AnnotationDataError:
    known = ", ".join(f"{k} ({o.type})" for k, o in sorted(options.items()))
    return AnnotationDataError(f"unknown tool option {key!r}.", hint=f"Known options: {known}.")


def parse_option(key: str, value: str, options: Mapping[str, ToolOption]) -> tuple[str, Any]:
    """Convert command-line text to the option's type (see :func:`parse_tool_option`).

    Parameters
    ----------
    key, value : str
        The option's name and its text.
    options : mapping of str to ToolOption
        The known options.

    Returns
    -------
    tuple
        ``(key, value)`` with the value converted.

    Raises
    ------
    AnnotationDataError
        For an unknown key or a value that does not convert.
    """
    key = key.strip()
    if key not in options:
        raise _unknown(key, options)
    opt = options[key]
    text = value.strip()
    if opt.type == "bool":
        low = text.lower()
        if low in TRUE or low in FALSE:
            return key, low in TRUE
        if opt.auto and low == AUTO:
            return key, None
        allowed = "true or false" + (" (or auto)" if opt.auto else "")
        raise AnnotationDataError(
            f"the tool option '{key}' takes {allowed}, not {value!r}.",
            hint=f"Write {key}=true or {key}=false (also yes/no, 1/0, on/off).",
        )
    if opt.type == "int":
        try:
            return key, int(text)
        except ValueError:
            raise AnnotationDataError(
                f"the tool option '{key}' takes a whole number, not {value!r}."
            ) from None
    if opt.type == "list[str]":
        names = [p.strip() for p in text.split(",") if p.strip()]
        if not names:
            raise AnnotationDataError(
                f"the tool option '{key}' needs one or more column names, separated by commas."
            )
        return key, names
    if not text:
        raise AnnotationDataError(f"the tool option '{key}' needs a value.")
    return key, text


def check_option(key: str, value: Any, options: Mapping[str, ToolOption]) -> None:
    """Check that a value given from Python has the option's type (``"false"`` is not False).

    Parameters
    ----------
    key : str
        The option's name.
    value : object
        Its value.
    options : mapping of str to ToolOption
        The known options.

    Raises
    ------
    AnnotationDataError
        For an unknown key or a value of the wrong type.
    """
    if key not in options:
        raise _unknown(key, options)
    opt = options[key]
    if value is None and opt.auto:
        return
    ok = {
        "bool": lambda v: isinstance(v, bool),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "str": lambda v: isinstance(v, str),
        "list[str]": lambda v: (
            isinstance(v, str)
            or (isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v))
        ),
    }[opt.type]
    if not ok(value):
        wanted = {
            "bool": "true or false" + (" (or None: decide from the data)" if opt.auto else ""),
            "int": "a whole number",
            "str": "text",
            "list[str]": "a column name or a list of column names",
        }[opt.type]
        raise AnnotationDataError(
            f"the tool option '{key}' takes {wanted}, not {value!r} ({type(value).__name__}).",
            hint="From the command line, use parse_tool_option to convert text.",
        )
