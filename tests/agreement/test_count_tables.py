"""Count-table input: items x categories counts and two-rater contingency tables.

Published figures (cited beside each number):

- irrCAC README (R package, github.com/kgwet/irrCAC, "Computing agreement coefficients from
  the distribution of raters by subject & category"): ``distrib.6raters`` (15 patients,
  6 psychiatrists) gives ``gwet.ac1.dist`` 0.4448007, ``fleiss.kappa.dist`` 0.4139265,
  ``krippen.alpha.dist`` 0.4204384, ``bp.coeff.dist`` 0.4388889.
- the same README, contingency tables: ``cont3x3abstractors`` gives ``kappa2.table``
  0.7964094, ``scott2.table`` 0.7962397, ``gwet.ac1.table`` 0.8493305, ``bp2.table`` 0.835,
  ``krippen2.table`` 0.7972585, ``pa2.table`` 0.89.
- statsmodels (``aggregate_raters`` + ``fleiss_kappa``, ``cohens_kappa``) as independent
  implementations, including fractional counts (statsmodels' formula takes them as they are).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa

import analytics.agreement as ag
from analytics import AnnotationDataError, load_annotations
from analytics.data import anonymous_annotators, from_contingency_table, from_count_table
from analytics.dawid_skene import fit
from tests.helpers.references import FLEISS_1971

DISTRIB_6RATERS = pd.DataFrame(
    [
        [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
        [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
        [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    ],
    columns=["Depression", "Personality.Disorder", "Schizophrenia", "Neurosis", "Other"],
)  # fmt: skip
CONT3X3 = pd.DataFrame(
    [[13, 0, 0], [0, 20, 7], [0, 4, 56]],
    index=["Ectopic", "AIU", "NIU"],
    columns=["Ectopic", "AIU", "NIU"],
)


def test_irrcac_dist_readme_values():
    ann = from_count_table(DISTRIB_6RATERS)
    assert round(ag.gwet_ac1(ann), 7) == 0.4448007
    assert round(ag.fleiss_kappa(ann), 7) == 0.4139265
    assert round(ag.krippendorff_alpha(ann), 7) == 0.4204384
    assert round(ag.brennan_prediger(ann), 7) == 0.4388889
    table = count_table_agreement_values(DISTRIB_6RATERS)
    assert round(table["Gwet's AC1"], 7) == 0.4448007
    assert round(table["Fleiss' kappa"], 7) == 0.4139265
    assert round(table["Krippendorff's alpha"], 7) == 0.4204384
    assert round(table["Brennan-Prediger"], 7) == 0.4388889


def count_table_agreement_values(table, **kw):
    return ag.count_table_agreement(table, **kw).set_index("coefficient")["value"]


def test_irrcac_table_readme_values():
    ann = from_contingency_table(CONT3X3)
    assert round(ag.cohen_kappa(ann, "rater 1", "rater 2"), 7) == 0.7964094
    assert round(ag.scott_pi(ann, "rater 1", "rater 2"), 7) == 0.7962397
    assert round(ag.gwet_ac1(ann), 7) == 0.8493305
    assert round(ag.brennan_prediger(ann), 3) == 0.835
    assert round(ag.krippendorff_alpha(ann), 7) == 0.7972585
    assert round(ag.percent_agreement(ann), 2) == 0.89


def test_statsmodels_contingency_and_aggregate_raters():
    ann = from_contingency_table(CONT3X3.to_numpy())
    sm = cohens_kappa(CONT3X3.to_numpy())
    assert ag.cohen_kappa(ann, "rater 1", "rater 2") == pytest.approx(sm.kappa, abs=1e-12)
    counts, _ = aggregate_raters(np.asarray(FLEISS_1971))
    assert ag.fleiss_kappa(from_count_table(counts)) == pytest.approx(
        fleiss_kappa(counts), abs=1e-12
    )


def test_count_path_equals_judgement_path_on_whole_counts():
    rng = np.random.default_rng(0)
    counts = rng.multinomial(5, [0.5, 0.3, 0.2], size=30)
    counts[:4] = rng.multinomial(3, [0.5, 0.3, 0.2], size=4)  # unequal numbers of raters
    ann = from_count_table(counts, categories=[1, 2, 3])
    direct = count_table_agreement_values(counts, categories=[1, 2, 3], weights="quadratic")
    assert direct["Fleiss' kappa"] == pytest.approx(ag.fleiss_kappa(ann, "quadratic"), abs=1e-12)
    assert direct["Gwet's AC2"] == pytest.approx(ag.gwet_ac1(ann, "quadratic"), abs=1e-12)
    assert direct["Krippendorff's alpha"] == pytest.approx(
        ag.krippendorff_alpha(ann, "interval"), abs=1e-12
    )
    plain = count_table_agreement_values(counts)
    assert plain["Percent agreement"] == pytest.approx(ag.percent_agreement(ann), abs=1e-12)


def test_fractional_counts_match_statsmodels():
    rng = np.random.default_rng(1)
    counts = rng.multinomial(7, [0.4, 0.3, 0.2, 0.1], size=25) / 2  # 3.5 "raters", halves
    values = count_table_agreement_values(counts)
    assert values["Fleiss' kappa"] == pytest.approx(fleiss_kappa(counts), abs=1e-12)
    assert values["Brennan-Prediger"] == pytest.approx(
        fleiss_kappa(counts, method="randolph"), abs=1e-12
    )
    with pytest.raises(AnnotationDataError, match="count_table_agreement"):
        from_count_table(counts)


def test_coefficients_that_need_rater_identities_say_why():
    ann = from_count_table(DISTRIB_6RATERS)
    assert anonymous_annotators(ann)
    for value in (ag.cohen_kappa(ann), ag.scott_pi(ann), ag.conger_kappa(ann), ag.kappa_max(ann)):
        assert np.isnan(value) and "anonymous" in value.reason
    report = ag.agreement_report(ann, n_boot=0).set_index("coefficient")
    assert np.isnan(report.loc["Conger's kappa", "value"])
    assert report.loc["Fleiss' kappa", "value"] == pytest.approx(0.4139265, abs=1e-7)
    with pytest.raises(AnnotationDataError, match="anonymous"):
        ag.pairwise(ann)
    with pytest.raises(AnnotationDataError, match="anonymous"):
        fit(ann)
    rows = count_table_agreement_values(DISTRIB_6RATERS)
    assert np.isnan(rows["Cohen's kappa"])


def test_load_annotations_reads_count_and_contingency_files():
    csv = DISTRIB_6RATERS.assign(subject=range(1, 16))[["subject", *DISTRIB_6RATERS.columns]]
    ann = load_annotations(
        io.BytesIO(csv.to_csv(index=False).encode()), format="csv", layout="counts"
    )
    assert ann.report.layout == "counts" and ann.n_items == 15 and ann.n_judgements == 90
    assert round(ag.fleiss_kappa(ann), 7) == 0.4139265
    cont = io.BytesIO(CONT3X3.rename_axis("abstractor 1").to_csv().encode())
    two = load_annotations(cont, format="csv", layout="contingency")
    assert two.n_annotators == 2 and two.n_items == 100
    assert round(ag.cohen_kappa(two, "rater 1", "rater 2"), 7) == 0.7964094


def test_bad_tables_are_refused_with_the_cell():
    with pytest.raises(AnnotationDataError, match="not a number"):
        from_count_table(pd.DataFrame({"a": [1, -1], "b": [0, 2]}))
    with pytest.raises(AnnotationDataError, match="square"):
        from_contingency_table(np.ones((2, 3)))
    with pytest.raises(AnnotationDataError, match="same categories"):
        from_contingency_table(pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["a", "c"]))


def test_a_numbered_item_column_is_items_whether_read_as_text_or_numbers():
    """pandas reads a 'subject' column of 1, 2, ... as numbers: still item names, not counts."""
    import io

    from analytics.agreement import count_table_agreement
    from analytics.data import read_table

    data = b"subject,a,b,c\n1,0.5,2.5,0\n2,1.5,0,1.5\n3,0,3,0\n4,2,0.5,0.5\n"
    as_text = count_table_agreement(read_table(data)[0])
    as_numbers = count_table_agreement(pd.read_csv(io.BytesIO(data)))
    pd.testing.assert_frame_equal(as_text, as_numbers)
