"""Running a few independent pieces of vectorised work on threads.

NumPy's and Arrow's kernels release the GIL, so pieces that spend their time in them
(encoding one column of a file each) run side by side on a machine with several cores.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["PARALLEL_MIN", "in_parallel"]

#: Work on fewer cells than this runs on the calling thread (a thread costs more).
PARALLEL_MIN = 100_000


def in_parallel(tasks: Sequence[Callable[[], Any]], size: int) -> list[Any]:
    """Each task's result, in order; on threads when ``size`` is large and cores allow.

    Parameters
    ----------
    tasks : sequence of callables taking no argument
    size : int
        How many cells the work touches: below :data:`PARALLEL_MIN`, or on one core, the
        tasks run one after the other.

    Returns
    -------
    list
        The results, in the order of ``tasks``. Every task runs to its end; the first
        exception in task order is raised (the same one a run in order raises, when
        the tasks are independent).

    Examples
    --------
    >>> in_parallel([lambda: 1, lambda: 2], size=10)
    [1, 2]
    """
    workers = min(len(tasks), os.cpu_count() or 1)
    if size < PARALLEL_MIN or workers < 2:
        return [task() for task in tasks]
    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(task) for task in tasks]
    return [future.result() for future in futures]
