"""Published reliability data, transcribed as printed, for the agreement tests.

Each table names its source; ``tests/agreement/test_published_data.py`` checks the totals the
papers print, so a transcription slip fails a test.
"""

from __future__ import annotations

NA = None

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C-E: 4 coders
# (rows) x 12 units (columns), missing judgements as None.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, 3],
    [NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NA],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA],
]

# Fleiss (1971), table 1: 30 patients x 6 psychiatrists, 5 diagnoses
# (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other).
# Fleiss printed only the counts per patient; this is the raw form as statsmodels' tests have it.
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
]

# Cohen (1960), table 1 as counts of 200 items (proportions x 200): judge A in rows.
COHEN_1960 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]

# Gwet (2014) / irrCAC ``cac.raw4raters``: 4 raters x 12 subjects, 5 categories.
GWET_RAW4RATERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, NA],
    [NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA],
]
