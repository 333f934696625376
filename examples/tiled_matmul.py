"""A tiled matmul kernel written in plain Python, whose index expressions eqsat simplifies.

    C[i, j] += A[i, k] * B[k, j]    for 64x64 matrices in 16x16 tiles

The kernel computes its flat indices from the tile and in-tile loop variables the way a
code generator does; eqsat, told the loop ranges, folds the divisions and modulos that
recover tile coordinates. Run it with the module on the path:

    PYTHONPATH=build/python python3 examples/tiled_matmul.py
"""

import eqsat

N, T = 64, 16  # matrix size, tile size
tiles = N // T

# Loop variables: tile indices io, jo, ko and in-tile indices ii, ji, ki.
bounds = {name: (0, tiles - 1) for name in ("io", "jo", "ko")}
bounds.update({name: (0, T - 1) for name in ("ii", "ji", "ki")})
io, jo, ko, ii, ji, ki = (eqsat.var(name) for name in ("io", "jo", "ko", "ii", "ji", "ki"))

i = io * T + ii
j = jo * T + ji
k = ko * T + ki

accesses = {
    "A": i * N + k,
    "B": k * N + j,
    "C": i * N + j,
    # A shared-memory tile of A, addressed from the global row and column.
    "A_tile": (i % T) * T + k % T,
    # Which tile a global index falls in, and where in the tile.
    "tile_row": (i * N + k) // N // T,
    "in_tile_col": (i * N + k) % N % T,
    # A guard the code generator emits for the ragged edge; always true here.
    "guard": eqsat.logical_and(i < N, k < N),
}

for name, index in accesses.items():
    simplified = eqsat.simplify(index, bounds=bounds)
    print(f"{name}[{index}] -> {simplified}")
