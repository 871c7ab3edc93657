#include "compute/core/tile.h"

#include <algorithm>

namespace warplab::compute {

std::vector<Tile> makeTiles(std::size_t rows, std::size_t cols, std::size_t tileRows,
                            std::size_t tileCols, bool symmetric) {
    std::vector<Tile> tiles;
    tileRows = std::max<std::size_t>(1, tileRows);
    tileCols = std::max<std::size_t>(1, tileCols);
    for (std::size_t r = 0; r < rows; r += tileRows) {
        for (std::size_t c = 0; c < cols; c += tileCols) {
            Tile t{r, std::min(rows, r + tileRows), c, std::min(cols, c + tileCols)};
            if (symmetric && t.colEnd <= t.rowBegin) continue;  // wholly below the diagonal
            tiles.push_back(t);
        }
    }
    return tiles;
}

}  // namespace warplab::compute
