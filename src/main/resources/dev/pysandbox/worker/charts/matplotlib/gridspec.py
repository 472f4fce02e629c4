"""GridSpec: a grid to place subplots in, spanning cells with slices (gs[0, :], gs[1:, 0])."""


class SubplotSpec:
    def __init__(self, grid, rows, cols):
        self._grid, self.rows, self.cols = grid, rows, cols

    def _cell(self):
        return {'rows': self._grid.nrows, 'cols': self._grid.ncols, 'row': self.rows.start, 'col': self.cols.start,
                'rowspan': len(self.rows), 'colspan': len(self.cols)}

    def get_gridspec(self):
        return self._grid


class GridSpec:
    def __init__(self, nrows, ncols, figure=None, left=None, bottom=None, right=None, top=None, wspace=None,
                 hspace=None, width_ratios=None, height_ratios=None):
        if width_ratios is not None and len(set(width_ratios)) > 1 or \
                height_ratios is not None and len(set(height_ratios)) > 1:
            raise NotImplementedError('GridSpec(width_ratios/height_ratios): cells of different sizes are not laid '
                                      'out by this sandbox\'s matplotlib; span cells instead (gs[0, :2])')
        self.nrows, self.ncols, self.figure = int(nrows), int(ncols), figure
        if figure is not None and any(v is not None for v in (left, bottom, right, top, wspace, hspace)):
            figure.subplots_adjust(left, bottom, right, top, wspace, hspace)

    def get_geometry(self):
        return self.nrows, self.ncols

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key, slice(None)) if self.nrows > 1 and self.ncols > 1 else \
                ((key, 0) if self.ncols == 1 else (0, key))
        rows = _span(key[0], self.nrows)
        cols = _span(key[1], self.ncols)
        return SubplotSpec(self, rows, cols)

    def subplots(self, **kwargs):
        return self.figure.subplots(self.nrows, self.ncols, **kwargs)


def _span(key, count):
    if isinstance(key, slice):
        span = range(count)[key]
        if len(span) == 0 or span.step != 1:
            raise IndexError('a grid slice must pick adjoining cells')
        return span
    index = range(count)[key]
    return range(index, index + 1)
