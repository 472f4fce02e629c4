"""AxesImage: a 2-D list of values drawn as a heat map through a colour map (imshow), or of RGB(A) colours."""
from matplotlib import _data, colors as _colors
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable


class AxesImage(Artist, ScalarMappable):
    zorder = 0

    def __init__(self, data, cmap=None, norm=None, vmin=None, vmax=None, origin='upper', extent=None, alpha=None,
                 label=None):
        Artist.__init__(self, label=label, alpha=alpha)
        ScalarMappable.__init__(self, norm, cmap)
        rows = [_data.sequence(row, 'a row of the image') for row in _data.sequence(data, 'the image')]
        if not rows or not rows[0]:
            raise TypeError('Invalid shape for image data: imshow takes a 2-D list of numbers (rows of values) or '
                            'of RGB(A) colours')
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise TypeError('Invalid shape for image data: every row must have the same length')
        self._rgb = isinstance(rows[0][0], (tuple, list))
        self._rows = rows
        if vmin is not None or vmax is not None:
            self.norm.vmin, self.norm.vmax = vmin, vmax
        self._values = None if self._rgb else [_data.number(v) for row in rows for v in row]
        self._origin = origin or 'upper'
        nrows, ncols = len(rows), width
        self._extent = list(extent) if extent is not None else [-0.5, ncols - 0.5, nrows - 0.5, -0.5] \
            if self._origin == 'upper' else [-0.5, ncols - 0.5, -0.5, nrows - 0.5]

    def _points(self):
        return len(self._rows) * len(self._rows[0])

    def get_array(self):
        return self._rows

    def set_data(self, data):
        self.__init__(data, self.cmap, self.norm, origin=self._origin, alpha=self._alpha)

    def get_extent(self):
        return list(self._extent)

    def _limits(self):
        left, right, bottom, top = self._extent
        return [left, right], [bottom, top]

    def _sticky(self):
        left, right, bottom, top = self._extent
        return (left, right), (bottom, top)

    def _wire(self, axes):
        rows = self._rows if self._origin == 'upper' else list(reversed(self._rows))
        if self._rgb:
            # Colours as floats in 0..1, or as ints in 0..255 (as a picture's bytes are).
            scale = 255.0 if any(isinstance(c, int) and c > 1 for row in rows for value in row for c in value[:3]) \
                else 1.0
            pixels = []
            for row in rows:
                for value in row:
                    r, g, b = (int(round(max(0.0, min(1.0, float(c) / scale)) * 255)) for c in value[:3])
                    pixels.append((r << 16) | (g << 8) | b)
        else:
            self.norm.autoscale_None(self._values)
            pixels = []
            for row in rows:
                for value in row:
                    f = self.norm(_data.number(value))
                    if f != f:
                        pixels.append(0xffffff)  # NaN: a blank cell, as matplotlib leaves a masked value
                        continue
                    r, g, b, a = self.cmap(max(0.0, min(1.0, f)))
                    pixels.append((int(round(r * 255)) << 16) | (int(round(g * 255)) << 8) | int(round(b * 255)))
        left, right, bottom, top = self._extent
        # The renderer puts its row 0 at the extent's `top`: the data's first row for origin 'upper', its last
        # for 'lower' (hence the reversed rows above).
        return [{'kind': 'image', 'rows': len(rows), 'cols': len(rows[0]), 'pixels': pixels,
                 'extent': [float(left), float(right), float(bottom), float(top)]}]
