"""The layout rules of docs/architecture.md, checked on the source so they cannot drift.

Imports are read statically (every ``import`` and ``from ... import`` anywhere in a module,
function-level ones included), so a circle hidden inside a function still fails.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
from collections import defaultdict
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

PACKAGE = ROOT / "analytics"
FAMILIES = (
    "data",
    "agreement",
    "multilabel",
    "noise",
    "dawid_skene",
    "models",
    "next_labels",
    "spans",
    "overview",
    "engines",
)
PUBLIC_FACES = {
    "analytics",
    "analytics.data",
    "analytics.data.importers",
    "analytics.agreement",
    "analytics.multilabel",
    "analytics.noise",
    "analytics.dawid_skene",
    "analytics.models",
    "analytics.next_labels",
    "analytics.spans",
    "analytics.overview",
    "analytics.engines",
    "analytics.report",
}
# the report's modules: computing the blocks, drawing them, and the settings they use
REPORT_MODULES = {"report.py", "report_html.py", "report_sections.py", "report_settings.py"}
# the command line's and the report's modules, above every family
CLI_AND_REPORT = (
    "report",
    "report_html",
    "report_sections",
    "report_settings",
    "cli",
    "cli_input",
    "cli_tables",
    "__main__",
)
MAX_LINES = 550  # "no module over ~500 lines" (issue 12), with room for a long docstring

# The names that code outside this repository calls (issue 12): they must keep working.
PROMISED = {
    "analytics": ["load_annotations", "Annotations", "AnnotationDataError"],
    "analytics.agreement": [
        "krippendorff_alpha",
        "agreement_report",
        "pairwise",
        "percent_agreement",
        "cohen_kappa",
        "scott_pi",
        "fleiss_kappa",
        "conger_kappa",
        "gwet_ac1",
        "brennan_prediger",
    ],
    "analytics.multilabel": ["am_agreement", "gold_standard"],
    "analytics.noise": [
        "noise_bound",
        "max_disagreements",
        "chance_difference",
        "agreement_probability",
        "noise_from_annotations",
    ],
    "analytics.dawid_skene": ["fit", "posterior", "mutual_information", "annotator_table"],
    "analytics.models": ["fit"],
    "analytics.next_labels": ["expected_gain", "next_batch", "plan", "replay"],
    "analytics.report": ["build_report", "build_report_zip"],
    "analytics.spans": ["load_spans", "SpanAnnotations"],
    "analytics.overview": ["judge"],
    "analytics.engines": ["load_annotations"],
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: use absolute imports"
            names = [alias.name for alias in node.names]
            found.append((node.module or "", names, node.lineno))
    return found


def _target(module: str, names: list[str]) -> list[str]:
    """The analytics modules an import statement loads (a submodule named in the list too)."""
    targets = [module] if module in MODULES else []
    targets += [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]
    return targets


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in MODULES.items():
        for module, names, _ in _imports(path):
            for target in _target(module, names):
                if target != name:
                    graph[name].add(target)
    return graph


def test_the_five_ideas_are_five_folders():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith("__")}
    assert folders == {"_core", *FAMILIES}
    loose = {p.name for p in PACKAGE.glob("*.py")}
    assert loose == {
        "__init__.py",
        "__main__.py",
        "cli.py",
        "cli_input.py",
        "cli_tables.py",
        *REPORT_MODULES,
    }


def test_no_import_circles():
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt) :], nxt]
                pytest.fail("import circle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(MODULES):
        if node not in state:
            visit(node)


def test_imports_run_downwards():
    """_core imports nothing above it; data only _core; a family only _core and public faces."""
    for name, path in MODULES.items():
        layer = name.split(".")[1] if name.count(".") else ""
        for module, names, line in _imports(path):
            if not module.startswith("analytics"):
                continue
            where = f"{path.relative_to(ROOT)}:{line} imports {module}"
            if layer == "_core":
                assert module.startswith("analytics._core"), where
            elif layer == "data":
                assert module.startswith(("analytics._core", "analytics.data")), where
            elif layer in CLI_AND_REPORT:
                assert module.startswith("analytics._core") or module in {
                    *PUBLIC_FACES,
                    "analytics.cli",
                    "analytics.cli_input",
                    "analytics.cli_tables",
                    "analytics.report_html",
                    "analytics.report_sections",
                    "analytics.report_settings",
                }, where
            elif layer in FAMILIES:
                own = f"analytics.{layer}"
                assert (
                    module.startswith((own + ".", "analytics._core")) or module in PUBLIC_FACES
                ), where
                submodules = all(f"{module}.{n}" in MODULES for n in names)
                assert module != own or submodules, (
                    f"{where}: a module must not import its own face"
                )


def test_no_module_takes_another_modules_private_names():
    for name, path in MODULES.items():
        for module, names, line in _imports(path):
            if module.startswith("analytics") and module != name:
                private = [n for n in names if n.startswith("_") and not n.startswith("__")]
                assert not private, f"{path.relative_to(ROOT)}:{line} takes {private} from {module}"


def test_analytics_never_imports_streamlit():
    for path in MODULES.values():
        for module, _, line in _imports(path):
            assert not module.startswith("streamlit"), f"{path.relative_to(ROOT)}:{line}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_stay_small(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it by idea"


def test_pages_and_ui_use_only_public_faces():
    shells = [
        ROOT / "app.py",
        *sorted((ROOT / "pages").glob("*.py")),
        *sorted((ROOT / "ui").glob("*.py")),
    ]
    for path in shells:
        for module, names, line in _imports(path):
            if module.startswith("analytics"):
                where = f"{path.relative_to(ROOT)}:{line} imports {module}"
                assert module in PUBLIC_FACES, where
                assert not any(n.startswith("_") for n in names), where


@pytest.mark.parametrize("face", sorted(PUBLIC_FACES))
def test_every_face_lists_names_that_exist(face):
    module = importlib.import_module(face)
    assert module.__all__, f"{face} has no __all__"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{face}.__all__ names {missing}, which it does not define"
    assert len(set(module.__all__)) == len(module.__all__)


@pytest.mark.parametrize("face", sorted(PROMISED))
def test_promised_public_names_keep_working(face):
    module = importlib.import_module(face)
    for name in PROMISED[face]:
        assert callable(getattr(module, name, None)), f"{face}.{name}"


def test_the_project_is_installed_with_its_command():
    dist = importlib.metadata.distribution("concord")
    scripts = {ep.name: ep.value for ep in dist.entry_points if ep.group == "console_scripts"}
    assert scripts == {"concord": "analytics.cli:main"}
    assert Path(importlib.import_module("analytics").__file__).resolve().parent == PACKAGE
