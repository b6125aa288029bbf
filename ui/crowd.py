"""Views that stay readable from 2 to 1,000 annotators (issue 17, point 4).

:func:`window` shows a page of a long ordered list (with a search box that jumps to the
page holding a name); :func:`annotator_picker` is a searchable multiselect that starts
empty instead of showing hundreds of chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from ui.settings import keep, recall, within
from ui.text import md

PAGE_SIZE = 40  # annotators per heatmap page: labels stay legible at 18 px per row


def window(
    ordered: Sequence[Any], *, key: str, noun: str = "annotators", scope: str | None = None
) -> list[Any]:
    """A page of ``ordered``: all of it when short, else a page chosen by number or search.

    Returns the annotators to show, in order; says which of how many are shown. The search
    and the page are kept for ``scope`` (the data set's fingerprint) when the page is left.
    """
    names = list(ordered)
    if len(names) <= PAGE_SIZE:
        return names
    pages = -(-len(names) // PAGE_SIZE)
    c1, c2 = st.columns([2, 1])
    query = c1.text_input(
        f"Find {noun[:-1] if noun.endswith('s') else noun}",
        value=recall(f"{key}_find", "", scope=scope),
        key=f"{key}_find",
        placeholder="part of a name: jumps to its page",
    )
    keep(f"{key}_find", query, scope=scope)
    start_page = 1
    if query:
        hits = [i for i, n in enumerate(names) if query.lower() in str(n).lower()]
        if hits:
            start_page = hits[0] // PAGE_SIZE + 1
        else:
            c1.caption(md(f"No {noun} match {query!r}."))
    # keyed by the search's page, so that a new search jumps there; kept for that search
    page_key = f"{key}_page_{start_page}"
    page = c2.number_input(
        f"Page (of {pages})",
        min_value=1,
        max_value=pages,
        value=recall(page_key, start_page, scope=scope, fit=within(1, pages)),
        key=page_key,
    )
    keep(page_key, int(page), scope=scope)
    lo = (int(page) - 1) * PAGE_SIZE
    shown = names[lo : lo + PAGE_SIZE]
    st.caption(
        f"Showing {noun} {lo + 1:,}-{lo + len(shown):,} of {len(names):,} "
        f"({PAGE_SIZE} per page); the CSV downloads hold every {noun[:-1]}."
    )
    return shown


def annotator_picker(
    label: str,
    names: Sequence[Any],
    *,
    key: str,
    help: str | None = None,
    default: Sequence[Any] = (),
) -> list[Any]:
    """A searchable multiselect that starts empty (type to search), for any number of names,
    or with ``default`` chosen (what the page chose before it was left)."""
    return st.multiselect(
        label,
        list(names),
        default=list(default),
        key=key,
        help=help,
        placeholder=f"Type to search {len(names):,} names",
    )
