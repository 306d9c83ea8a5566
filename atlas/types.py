"""Type aliases for the vocabulary used across atlas."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["Grid", "IntGrid", "Cell", "PlayerId"]

#: A boolean grid indexed ``[row, col]``; ``True`` means blocked (wall, water, trail).
Grid: TypeAlias = npt.NDArray[np.bool_]
#: An integer grid indexed ``[row, col]`` (distances, labels, owners).
IntGrid: TypeAlias = npt.NDArray[np.int32]
#: A cell as ``(row, col)``.
Cell: TypeAlias = tuple[int, int]
#: A seat number, 0-based.
PlayerId: TypeAlias = int
