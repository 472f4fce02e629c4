"""What subplots() returns for a grid of axes: indexable as numpy's array is (axes[0], axes[1, 0], axes[0][1],
axes.flat, axes.flatten(), axes.ravel(), axes.shape), with no numpy in the sandbox."""


class AxesArray:
    def __init__(self, items, shape):
        self._items, self.shape = list(items), tuple(shape)
        self.ndim = len(self.shape)
        self.size = len(self._items)

    def _rows(self):
        if self.ndim == 1:
            return list(self._items)
        rows, cols = self.shape
        return [AxesArray(self._items[r * cols:(r + 1) * cols], (cols,)) for r in range(rows)]

    def __getitem__(self, key):
        if self.ndim == 1:
            if isinstance(key, slice):
                return AxesArray(self._items[key], (len(self._items[key]),))
            if isinstance(key, tuple):
                if len(key) != 1:
                    raise IndexError('too many indices for array: array is 1-dimensional, but %d were indexed'
                                     % len(key))
                key = key[0]
            return self._items[key]
        rows, cols = self.shape
        if isinstance(key, tuple):
            if len(key) != 2:
                raise IndexError('too many indices for array: array is 2-dimensional, but %d were indexed' % len(key))
            r, c = key
            if isinstance(r, slice) or isinstance(c, slice):
                row_keys = range(rows)[r] if isinstance(r, slice) else [range(rows)[r]]
                col_keys = range(cols)[c] if isinstance(c, slice) else [range(cols)[c]]
                picked = [self._items[i * cols + j] for i in row_keys for j in col_keys]
                if isinstance(r, slice) and isinstance(c, slice):
                    return AxesArray(picked, (len(row_keys), len(col_keys)))
                return AxesArray(picked, (len(picked),))
            return self._items[range(rows)[r] * cols + range(cols)[c]]
        if isinstance(key, slice):
            kept = range(rows)[key]
            return AxesArray([self._items[i * cols + j] for i in kept for j in range(cols)], (len(kept), cols))
        return self._rows()[key]

    def __iter__(self):
        return iter(self._rows())

    def __len__(self):
        return self.shape[0]

    @property
    def flat(self):
        return iter(self._items)

    def flatten(self, order='C'):
        return AxesArray(self._items, (len(self._items),))

    ravel = flatten

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        if shape in ((-1,), (len(self._items),)):
            return self.flatten()
        if len(shape) == 2:
            rows, cols = shape
            if rows == -1:
                rows = len(self._items) // cols
            if cols == -1:
                cols = len(self._items) // rows
            return AxesArray(self._items, (rows, cols))
        raise ValueError('cannot reshape array of size %d into shape %s' % (len(self._items), shape))

    def tolist(self):
        return [row.tolist() if isinstance(row, AxesArray) else row for row in self._rows()]

    @property
    def T(self):
        if self.ndim == 1:
            return self
        rows, cols = self.shape
        return AxesArray([self._items[r * cols + c] for c in range(cols) for r in range(rows)], (cols, rows))

    def __repr__(self):
        return 'array(%r, dtype=object)' % (self.tolist(),)
