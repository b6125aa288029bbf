"""Every page runs inside the app's frame (``app.py``), even when it is opened first by URL.

Streamlit serves a ``pages/`` folder beside the entry point as its older multipage form
until some session has run ``st.navigation``: the first visitor after the server starts
who opens a page's address directly (a bookmark of ``/agreement``) got that page alone,
without the frame: Streamlit's own list of file names in the sidebar, no sample data
loaded, no report button. :func:`via_the_frame` sends such a visit through ``app.py``,
which then opens the page that was asked for.
"""

from __future__ import annotations

import streamlit as st

from ui.widgets import DOWNLOAD_STEM

__all__ = ["FRAME_RAN", "WANTED_PAGE", "open_wanted_page", "via_the_frame"]

#: Session key: the page a visit asked for before the frame had run.
WANTED_PAGE = "concord_wanted_page"
#: Session key: ``app.py`` has run in this session (set by :func:`open_wanted_page`).
FRAME_RAN = "concord_frame_ran"


def _folder_mode() -> bool:
    """Whether Streamlit runs this session in its ``pages/`` folder form (no frame yet)."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # another Streamlit: nothing to detect, nothing to do
        return False
    return bool(getattr(PagesManager, "uses_pages_directory", False))


def via_the_frame(page: str) -> None:
    """At the top of a page: outside the frame, go through ``app.py`` to ``page``.

    Parameters
    ----------
    page : str
        The page's path as the navigation names it, e.g. ``"pages/agreement.py"``.
    """
    st.session_state.pop(DOWNLOAD_STEM, None)  # a page sets it again in this run if it must
    if _folder_mode() and not st.session_state.get(FRAME_RAN):
        st.session_state[WANTED_PAGE] = page
        st.switch_page("app.py")


def open_wanted_page() -> None:
    """In ``app.py`` after ``st.navigation``: open the page a first visit asked for."""
    st.session_state[FRAME_RAN] = True
    wanted = st.session_state.pop(WANTED_PAGE, None)
    if wanted:
        st.switch_page(wanted)
