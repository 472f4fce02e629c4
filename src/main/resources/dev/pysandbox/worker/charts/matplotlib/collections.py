"""Collections: the markers of scatter(), the polygons of fill_between(), the segments of errorbar() and hlines()."""
from matplotlib import colors as _colors, _style
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable


class Collection(Artist, ScalarMappable):
    zorder = 1

    def __init__(self, label=None, alpha=None, zorder=None):
        Artist.__init__(self, label=label, alpha=alpha, zorder=zorder)
        ScalarMappable.__init__(self)


class PathCollection(Collection):
    """scatter()'s markers: a position, an area (points squared) and a colour each."""

    def __init__(self, x, y, sizes, face, values, marker, edge, edge_width, label=None, alpha=None, zorder=None):
        super().__init__(label=label, alpha=alpha, zorder=zorder)
        self._x, self._y, self._sizes, self._face = x, y, sizes, face
        self._marker, self._edge, self._edge_width = marker, edge, edge_width
        self._values = values

    def _points(self):
        return len(self._x)

    def get_offsets(self):
        return [list(p) for p in zip(self._x, self._y)]

    def set_offsets(self, offsets):
        self._x, self._y = [p[0] for p in offsets], [p[1] for p in offsets]

    def get_sizes(self):
        return list(self._sizes)

    def set_sizes(self, sizes):
        self._sizes = [float(s) for s in sizes]

    def set_color(self, c):
        self._face, self._values = [c], None

    set_facecolor = set_color

    def _limits(self):
        return self._x, self._y

    def _faces(self):
        if self._values is not None:
            self.norm.autoscale_None(self._values)
            return [_colors._wire(self.cmap(self.norm(v)), self._alpha) for v in self._values]
        return [_colors._wire(c, self._alpha) for c in self._face]

    def _wire(self, axes):
        return [{'kind': 'markers', 'x': axes.xaxis._numbers(self._x), 'y': axes.yaxis._numbers(self._y),
                 'sizes': self._sizes, 'colors': self._faces(), 'marker': self._marker,
                 'edge': _colors._wire(self._edge, self._alpha) if self._edge is not None else None,
                 'edge_width': self._edge_width}]

    def _legend_entry(self):
        faces = self._faces()
        return {'label': self._label, 'line': False, 'color': faces[0] if faces else None, 'marker': self._marker,
                'marker_face': faces[0] if faces else None}


class PolyCollection(Collection):
    """Filled polygons: fill_between's areas."""

    def __init__(self, polygons, face, edge=None, linewidth=None, label=None, alpha=None, zorder=None):
        super().__init__(label=label, alpha=alpha, zorder=zorder)
        self._polygons, self._face, self._edge, self._width = polygons, face, edge, linewidth

    def set_color(self, c):
        self._face = c

    set_facecolor = set_color

    def _points(self):
        return sum(len(poly) for poly in self._polygons)

    def _limits(self):
        return [p[0] for poly in self._polygons for p in poly], [p[1] for poly in self._polygons for p in poly]

    def _wire(self, axes):
        face = _colors._wire(self._face, self._alpha)
        edge = _colors._wire(self._edge, self._alpha) if self._edge is not None else None
        return [{'kind': 'polygon', 'x': axes.xaxis._numbers([p[0] for p in poly]),
                 'y': axes.yaxis._numbers([p[1] for p in poly]), 'face': face, 'edge': edge,
                 'edge_width': self._width or (1.0 if edge else 0.0)} for poly in self._polygons]

    def _legend_entry(self):
        return {'label': self._label, 'patch': True, 'color': _colors._wire(self._face, self._alpha),
                'edge': None, 'width': 0}


class LineCollection(Collection):
    """Separate segments in one colour and style: errorbar()'s bars, hlines() and vlines()."""

    def __init__(self, segments, color='C0', linewidth=1.5, linestyle='-', label=None, alpha=None, zorder=None,
                 x_in='data', y_in='data'):
        super().__init__(label=label, alpha=alpha, zorder=zorder)
        self._segments, self._color, self._width, self._linestyle = segments, color, linewidth, linestyle
        self._x_in, self._y_in = x_in, y_in

    def set_color(self, c):
        self._color = c

    def _points(self):
        return 3 * len(self._segments)

    def _limits(self):
        xs = [p[0] for s in self._segments for p in s] if self._x_in == 'data' else None
        ys = [p[1] for s in self._segments for p in s] if self._y_in == 'data' else None
        return xs, ys

    def _wire(self, axes):
        x, y = [], []
        for segment in self._segments:
            x.extend([p[0] for p in segment] + [None])
            y.extend([p[1] for p in segment] + [None])
        return [{'kind': 'line', 'x': axes.xaxis._numbers(x) if self._x_in == 'data' else [_nan(v) for v in x],
                 'y': axes.yaxis._numbers(y) if self._y_in == 'data' else [_nan(v) for v in y],
                 'x_in': self._x_in, 'y_in': self._y_in, 'color': _colors._wire(self._color, self._alpha),
                 'width': self._width, 'dash': _style.dash(self._linestyle, self._width), 'marker': None,
                 'marker_size': 0, 'marker_face': None, 'marker_edge': None, 'step': None}]

    def _legend_entry(self):
        return {'label': self._label, 'line': True, 'color': _colors._wire(self._color, self._alpha),
                'width': self._width, 'dash': _style.dash(self._linestyle, self._width), 'marker': None}


def _nan(value):
    return float('nan') if value is None else float(value)
