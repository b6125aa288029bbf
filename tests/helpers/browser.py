"""Start Concord on a free local port and drive it with Playwright and Debian's chromium.

The waiting pattern follows Streamlit's own ``e2e_playwright/conftest.py``: wait for the
connection, then for the script to stop running.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# A test run leaves the clone clean: screenshots go to test-artifacts/ (ignored by git);
# CONCORD_UPDATE_SCREENSHOTS=1 refreshes the README's pictures in docs/screenshots.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("CONCORD_UPDATE_SCREENSHOTS")
    else ROOT / "test-artifacts" / "screenshots"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StreamlitServer:
    """``streamlit run app.py`` in a subprocess, bound to 127.0.0.1 on a free port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> StreamlitServer:
        cmd = [
            sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.headless", "true",
            "--server.port", str(self.port),
            "--server.address", "127.0.0.1",
            "--server.fileWatcherType", "none",
            "--browser.gatherUsageStats", "false",
        ]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode(errors="replace") if self.proc.stdout else ""
                raise RuntimeError(f"streamlit exited early:\n{out}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        self.__exit__(None, None, None)
        raise RuntimeError("streamlit did not become healthy within 60 s")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def wait_for_app(page, timeout: float = 60_000) -> None:
    """Wait until the app is connected and its script has finished running."""
    page.wait_for_selector(
        "[data-test-connection-state='CONNECTED']", timeout=timeout, state="attached"
    )
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-script-state='notRunning']",
        timeout=timeout,
        state="attached",
    )
    page.wait_for_timeout(300)
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-script-state='notRunning']",
        timeout=timeout,
        state="attached",
    )


def goto_page(page, title: str, timeout: float = 60_000) -> None:
    """Open a page by its title in the sidebar navigation and wait for it (ms)."""
    page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
    wait_for_app(page, timeout)


def upload(page, path: Path) -> None:
    """Upload a file through the Data page's uploader and wait for the app."""
    page.get_by_text("Upload a file", exact=True).first.click()
    wait_for_app(page)
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    wait_for_app(page)


def sidebar(page, showing: str) -> str:
    """The sidebar's text once it shows ``showing`` (a test still fails if it never does).

    The sidebar is drawn before the page runs; after an upload the app reruns to redraw
    it, and on a slow machine the page's new text can be read before that rerun lands.
    """
    from playwright.sync_api import expect

    bar = page.get_by_test_id("stSidebar")
    expect(bar).to_contain_text(showing, timeout=60_000)
    return bar.inner_text()
