"""One definition of every reduction, as SQL that DuckDB and Spark SQL both run.

Every query reads the coded view :data:`JUDGEMENTS` (``item`` as the source has it,
``annotator`` and ``label`` as integer codes, one row per judgement with a label) and
returns a table whose size depends on the annotators and categories, not on the
judgements. Only the common core of SQL is used (``CASE``, ``SUM``, ``COUNT``,
``GROUP BY``, inner joins, ``LN``, ``EXP``, ``GREATEST``), so the text is the same on
both engines; the one dialect difference (the text type) is a parameter.

Notation as in :mod:`analytics.agreement`: item :math:`i` has :math:`r_{ik}` judgements
in category :math:`k`; :math:`q` categories.
"""

from __future__ import annotations

__all__ = [
    "JUDGEMENTS",
    "SOURCE",
    "annotator_category_counts",
    "coded_view",
    "count_patterns",
    "item_range",
    "pair_table",
    "sizes",
]

SOURCE = "concord_src"
"""The source rows with an item and an annotator: ``item, annotator, label``, the annotator
and label as cleaned text (:mod:`analytics.engines.source`)."""
JUDGEMENTS = "concord_j"
"""The coded judgements: ``item, annotator, label`` (the last two integer codes)."""
CATEGORIES = "concord_cats"
ANNOTATORS = "concord_anns"


def annotators_query() -> str:
    """The annotators with at least one labelled judgement."""
    return (
        f"SELECT DISTINCT s.annotator AS name FROM {SOURCE} s "
        f"JOIN {CATEGORIES} c ON s.label = c.value"
    )


def item_range() -> str:
    """The smallest and largest item (of an integer item column)."""
    return f"SELECT MIN(item) AS lo, MAX(item) AS hi FROM {SOURCE}"


def coded_view(
    q: int,
    *,
    item: str | None = None,
    annotator: str = "INTEGER",
    label: str = "INTEGER",
    al: str = "INTEGER",
) -> str:
    """The judgements with annotator and label codes (unlabelled rows drop out of the join).

    ``al = annotator * q + label`` is the one-column key the Dawid-Skene steps join and
    group on (a single integer key is cheaper than two). ``item`` (None: the item as the
    source has it), ``annotator``, ``label`` and ``al`` are the column types: the
    narrowest that hold the values keep the table small.
    """
    item_col = "s.item" if item is None else f"CAST(s.item AS {item})"
    return (
        f"SELECT {item_col} AS item, CAST(a.code AS {annotator}) AS annotator, "
        f"CAST(c.code AS {label}) AS label, "
        f"CAST(CAST(a.code AS BIGINT) * {int(q)} + c.code AS {al}) AS al FROM {SOURCE} s "
        f"JOIN {ANNOTATORS} a ON s.annotator = a.name JOIN {CATEGORIES} c ON s.label = c.value"
    )


def sizes() -> str:
    """Judgements, items and distinct (item, annotator) pairs (fewer: some repeat)."""
    return (
        "SELECT SUM(n) AS judgements, COUNT(DISTINCT item) AS items, COUNT(*) AS coders "
        f"FROM (SELECT item, annotator, COUNT(*) AS n FROM {JUDGEMENTS} "
        "GROUP BY item, annotator) t"
    )


def count_patterns(q: int) -> str:
    """Distinct rows :math:`(r_{i1}, \\dots, r_{iq})` of the item x category counts, with
    how many items show each (column ``m``): everything the Fleiss family, percent
    agreement and Krippendorff's alpha need."""
    cols = ", ".join(f"SUM(CASE WHEN label = {k} THEN 1 ELSE 0 END) AS c{k}" for k in range(q))
    names = ", ".join(f"c{k}" for k in range(q))
    return (
        f"SELECT {names}, COUNT(*) AS m FROM (SELECT item, {cols} FROM {JUDGEMENTS} "
        f"GROUP BY item) t GROUP BY {names}"
    )


def annotator_category_counts() -> str:
    """Judgements per annotator and category (Conger's annotator margins)."""
    return f"SELECT annotator, label, COUNT(*) AS n FROM {JUDGEMENTS} GROUP BY annotator, label"


def pair_table(a: int | None = None, b: int | None = None) -> str:
    """Per annotator pair ``a < b`` and label pair, the items judged ``la`` by a, ``lb`` by b
    (every two-annotator coefficient reduces to it); only the pair ``(a, b)`` when given."""
    only = "" if a is None else f" AND x.annotator = {int(a)} AND y.annotator = {int(b)}"
    return (
        "SELECT x.annotator AS a, y.annotator AS b, x.label AS la, y.label AS lb, "
        f"COUNT(*) AS n FROM {JUDGEMENTS} x JOIN {JUDGEMENTS} y "
        f"ON x.item = y.item AND x.annotator < y.annotator{only} "
        "GROUP BY x.annotator, y.annotator, x.label, y.label"
    )


def sharing_pairs() -> str:
    """The number ``n`` of annotator pairs ``a < b`` that judged an item in common."""
    return (
        f"SELECT COUNT(*) AS n FROM (SELECT DISTINCT x.annotator, y.annotator FROM {JUDGEMENTS} "
        f"x JOIN {JUDGEMENTS} y ON x.item = y.item AND x.annotator < y.annotator) pairs"
    )


# ---------------------------------------------------------------------- noise (footnote 3)
NOISE_ITEMS = "concord_noise_items"
"""Per item: judgements ``r`` by the chosen annotators, lowest and highest label."""
LOG_RATES = "concord_logr"
"""Per annotator and category, the log of its rate on disagreed items (``annotator,
label, logr``)."""
ITEM_CHANCE = "concord_item_p"
"""Per item taking part, its chance agreement ``p`` on a hard item."""


def among(codes: list[int] | None, alias: str = "") -> str:
    """The condition keeping the chosen annotators (``TRUE`` for all of them)."""
    if codes is None:
        return "TRUE"
    return f"{alias}annotator IN ({', '.join(str(int(c)) for c in codes) or 'NULL'})"


def noise_items(chosen: str) -> str:
    """Per item: ``r`` judgements by the chosen annotators, lowest and highest label code."""
    return (
        f"SELECT item, COUNT(*) AS r, MIN(label) AS lo, MAX(label) AS hi FROM {JUDGEMENTS} "
        f"WHERE {chosen} GROUP BY item"
    )


def noise_counts() -> str:
    """Items left out (one judgement), taking part (``n``) and disagreed on (``d``)."""
    return (
        "SELECT SUM(CASE WHEN r < 2 THEN 1 ELSE 0 END) AS excluded, "
        "SUM(CASE WHEN r >= 2 THEN 1 ELSE 0 END) AS n, "
        f"SUM(CASE WHEN r >= 2 AND lo <> hi THEN 1 ELSE 0 END) AS d FROM {NOISE_ITEMS}"
    )


def disagreed_counts(chosen: str) -> str:
    """Judgements per annotator and category on the disagreed items (footnote 3's rates)."""
    return (
        f"SELECT j.annotator AS annotator, j.label AS label, COUNT(*) AS n FROM {JUDGEMENTS} j "
        f"JOIN {NOISE_ITEMS} t ON j.item = t.item WHERE t.r >= 2 AND t.lo <> t.hi AND {chosen} "
        "GROUP BY j.annotator, j.label"
    )


def item_chance(chosen: str) -> str:
    """:math:`p_i = \\sum_c \\exp \\sum_{j \\text{ judged } i} \\log r_{jc}` per item taking part."""
    return (
        "SELECT x.item AS item, SUM(EXP(x.s)) AS p FROM (SELECT j.item AS item, l.label AS label, "
        f"SUM(l.logr) AS s FROM {JUDGEMENTS} j JOIN {NOISE_ITEMS} t ON j.item = t.item "
        f"JOIN {LOG_RATES} l ON j.annotator = l.annotator WHERE t.r >= 2 AND {chosen} "
        "GROUP BY j.item, l.label) x GROUP BY x.item"
    )


def chance_values() -> str:
    """The distinct (p, agreed) of the items taking part, with how many items have each."""
    return (
        "SELECT c.p AS p, CASE WHEN t.lo = t.hi THEN 1 ELSE 0 END AS agreed, COUNT(*) AS m "
        f"FROM {ITEM_CHANCE} c JOIN {NOISE_ITEMS} t ON c.item = t.item "
        "GROUP BY c.p, CASE WHEN t.lo = t.hi THEN 1 ELSE 0 END"
    )


def chance_sample(limit: int) -> str:
    """The first ``limit`` items taking part (in item order), with their p."""
    return (
        "SELECT t.item AS item, t.r AS r, t.lo AS lo, t.hi AS hi, c.p AS p FROM "
        f"{NOISE_ITEMS} t JOIN {ITEM_CHANCE} c ON t.item = c.item ORDER BY t.item "
        f"LIMIT {int(limit)}"
    )


def panels(chosen: str, sorted_codes: str) -> str:
    """How many distinct annotator panels judged the items taking part.

    ``sorted_codes`` is the dialect's aggregate of ``j.annotator`` into one sorted text.
    """
    return (
        f"SELECT COUNT(DISTINCT panel) AS panels FROM (SELECT j.item, {sorted_codes} AS panel "
        f"FROM {JUDGEMENTS} j JOIN {NOISE_ITEMS} t ON j.item = t.item WHERE t.r >= 2 AND {chosen} "
        "GROUP BY j.item) y"
    )


def noise_sample(limit: int) -> str:
    """The first ``limit`` items taking part (in item order), without p."""
    return (
        f"SELECT item, r, lo, hi FROM {NOISE_ITEMS} WHERE r >= 2 ORDER BY item LIMIT {int(limit)}"
    )


# ---------------------------------------------------------------------- Dawid-Skene EM
VOTES = "concord_votes"
"""Per item its votes per category (``c0 .. c{K-1}``)."""
POSTERIORS = "concord_q"
"""Per item its posteriors ``q0 .. q{K-1}`` and log-likelihood term ``ll``."""
LOG_THETA = "concord_log_theta"
"""Per ``al = annotator * K + given label``, :math:`\\log\\theta_{j,k,\\text{given}}` as
``l0 .. l{K-1}`` (one column per true category)."""


def _cols(prefix: str, k: int) -> list[str]:
    return [f"{prefix}{c}" for c in range(k)]


def _greatest(cols: list[str]) -> str:
    return cols[0] if len(cols) == 1 else f"GREATEST({', '.join(cols)})"


def number(x: float) -> str:
    """A double literal both dialects read exactly (not a DECIMAL)."""
    return f"CAST('{float(x)!r}' AS DOUBLE)"


ZERO = "CAST(0 AS DOUBLE)"


def votes(k: int, where: str = "TRUE") -> str:
    """Per item (those meeting ``where``), the votes per category (the in-memory
    ``count_matrix``), as INTEGER."""
    cols = ", ".join(
        f"CAST(SUM(CASE WHEN label = {c} THEN 1 ELSE 0 END) AS INTEGER) AS c{c}" for c in range(k)
    )
    return f"SELECT item, {cols} FROM {JUDGEMENTS} WHERE {where} GROUP BY item"


ZERO = "CAST(0 AS DOUBLE)"


def start(k: int, how: str) -> str:
    """Initial posteriors: ``majority`` (ties split equally) or ``soft`` (vote shares)."""
    c = _cols("c", k)
    if how == "soft":
        total = " + ".join(c)
        qs = ", ".join(f"CAST(c{i} AS DOUBLE) / ({total}) AS q{i}" for i in range(k))
        return f"SELECT item, {qs}, {ZERO} AS ll FROM {VOTES}"
    # integer 0/1 cast to DOUBLE: a literal 1.0 would be a DECIMAL in both dialects
    wins = [f"CASE WHEN c{i} = top THEN 1 ELSE 0 END" for i in range(k)]
    ties = f"CAST({' + '.join(wins)} AS DOUBLE)"
    qs = ", ".join(f"CAST({w} AS DOUBLE) / {ties} AS q{i}" for i, w in enumerate(wins))
    return (
        f"SELECT item, {qs}, {ZERO} AS ll FROM (SELECT v.*, {_greatest(c)} AS top FROM {VOTES} v) t"
    )


def expected_counts(k: int) -> str:
    """M-step sums: per ``al`` (annotator and given label), the posterior mass of each true
    class."""
    sums = ", ".join(f"SUM(q.q{i}) AS n{i}" for i in range(k))
    return (
        f"SELECT j.al AS al, {sums} FROM {JUDGEMENTS} j "
        f"JOIN {POSTERIORS} q ON j.item = q.item GROUP BY j.al"
    )


def posterior_totals(k: int) -> str:
    """Column sums of the posteriors (the prevalence numerator) and the log-likelihood."""
    return f"SELECT {', '.join(f'SUM(q{i}) AS t{i}' for i in range(k))}, SUM(ll) AS ll FROM {POSTERIORS}"


def e_step(log_pi: list[float]) -> str:
    """E-step: per item, Bayes' rule over the true classes, with the log-sum-exp trick.

    :math:`s_{ik} = \\log\\pi_k + \\sum_{n: i[n]=i} \\log\\theta_{j[n],k,y[n]}`;
    :math:`q_{ik} = e^{s_{ik} - m_i} / z_i`, :math:`\\ell_i = m_i + \\log z_i` with
    :math:`m_i = \\max_k s_{ik}` and :math:`z_i = \\sum_k e^{s_{ik} - m_i}`.
    """
    k = len(log_pi)
    s = ", ".join(f"SUM(t.l{i}) + {number(v)} AS s{i}" for i, v in enumerate(log_pi))
    e = [f"EXP(s{i} - top)" for i in range(k)]
    qs = ", ".join(f"{x} / z AS q{i}" for i, x in enumerate(e))
    return (
        f"SELECT item, {qs}, top + LN(z) AS ll FROM (SELECT b.*, {' + '.join(e)} AS z FROM "
        f"(SELECT a.*, {_greatest(_cols('s', k))} AS top FROM (SELECT j.item AS item, {s} "
        f"FROM {JUDGEMENTS} j JOIN {LOG_THETA} t ON j.al = t.al GROUP BY j.item) a) b) c"
    )


def posterior_sample(k: int, limit: int) -> str:
    """The first ``limit`` items (in item order): posteriors and votes (counted for those
    items only)."""
    cols = ", ".join(_cols("q.q", k) + _cols("v.c", k))
    first = f"SELECT * FROM {POSTERIORS} ORDER BY item LIMIT {int(limit)}"
    shown = votes(k, f"item IN (SELECT item FROM ({first}) f)")
    return (
        f"SELECT q.item AS item, {cols} FROM ({first}) q JOIN ({shown}) v ON q.item = v.item "
        "ORDER BY q.item"
    )


def single_judgement_items() -> str:
    """Items with exactly one judgement."""
    return (
        "SELECT COUNT(*) AS single FROM (SELECT item FROM "
        f"{JUDGEMENTS} GROUP BY item HAVING COUNT(*) = 1) t"
    )


def judgements_per_annotator() -> str:
    """Judgements per annotator code."""
    return f"SELECT annotator, COUNT(*) AS n FROM {JUDGEMENTS} GROUP BY annotator"
