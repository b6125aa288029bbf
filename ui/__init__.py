"""Streamlit helpers shared by the pages: session state, downloads, figure display.

Only the app imports this package; the analytics library never does.
"""
