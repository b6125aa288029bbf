"""A test run leaves a fresh clone clean (issue 17, point 8).

The browser tests save screenshots, but only into ``test-artifacts/`` (ignored by git); the
README's pictures in ``docs/screenshots/`` are rewritten only by
``scripts/update_screenshots.sh``, which sets ``CONCORD_UPDATE_SCREENSHOTS=1`` on purpose.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess

import pytest

from tests.helpers import browser
from tests.helpers.paths import ROOT


def _reload_browser_helper(monkeypatch, value: str | None):
    if value is None:
        monkeypatch.delenv("CONCORD_UPDATE_SCREENSHOTS", raising=False)
    else:
        monkeypatch.setenv("CONCORD_UPDATE_SCREENSHOTS", value)
    return importlib.reload(browser)


def test_test_runs_save_screenshots_outside_tracked_folders(monkeypatch):
    try:
        helper = _reload_browser_helper(monkeypatch, None)
        assert helper.SCREENSHOTS == ROOT / "test-artifacts" / "screenshots"
        helper = _reload_browser_helper(monkeypatch, "1")
        assert helper.SCREENSHOTS == ROOT / "docs" / "screenshots"
    finally:
        monkeypatch.undo()
        importlib.reload(browser)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_screenshot_folder_of_test_runs_is_ignored_by_git():
    probe = "test-artifacts/screenshots/data.png"
    done = subprocess.run(
        ["git", "check-ignore", "-q", probe], cwd=ROOT, capture_output=True, check=False
    )
    if done.returncode == 128:
        pytest.skip("not a git checkout")
    assert done.returncode == 0, f"{probe} would be tracked by git"


def test_run_tests_never_asks_for_screenshots():
    script = (ROOT / "run_tests.sh").read_text(encoding="utf-8")
    assert "CONCORD_UPDATE_SCREENSHOTS" not in script
    explicit = (ROOT / "scripts" / "update_screenshots.sh").read_text(encoding="utf-8")
    assert "CONCORD_UPDATE_SCREENSHOTS=1" in explicit
