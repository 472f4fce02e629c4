"""Patches: rectangles (bars, histogram bins), wedges (pie slices), polygons, circles, and Patch for legends."""
import math

from matplotlib import colors as _colors
from matplotlib.artist import Artist


class Patch(Artist):
    zorder = 1

    def __init__(self, edgecolor=None, facecolor=None, color=None, linewidth=None, linestyle=None, alpha=None,
                 label=None, fill=True, hatch=None, zorder=None, **kwargs):
        super().__init__(label=label, alpha=alpha, zorder=zorder)
        if color is not None:
            facecolor = facecolor if facecolor is not None else color
            edgecolor = edgecolor if edgecolor is not None else color
        self._face = 'C0' if facecolor is None else facecolor
        self._fill = fill
        self._edge = edgecolor
        self._linewidth = None if linewidth is None else float(linewidth)
        if hatch:
            raise NotImplementedError('hatch=%r: hatched patches are not drawn by this sandbox\'s matplotlib; use '
                                      'colours or alpha to tell patches apart' % (hatch,))
        for key, value in kwargs.items():
            setter = getattr(self, 'set_' + key, None)
            if setter is None:
                raise AttributeError('%s got an unexpected keyword argument %r' % (type(self).__name__, key))
            setter(value)

    def get_facecolor(self):
        return _colors.to_rgba(self._face, self._alpha)

    def set_facecolor(self, c):
        _colors.to_rgba(c) if c is not None else None
        self._face = c

    def get_edgecolor(self):
        return _colors.to_rgba(self._edge or 'none')

    def set_edgecolor(self, c):
        self._edge = c

    def set_color(self, c):
        self._face = self._edge = c

    def set_linewidth(self, w):
        self._linewidth = float(w)

    def get_linewidth(self):
        return self._linewidth or 0.0

    def set_fill(self, b):
        self._fill = bool(b)

    def set_hatch(self, hatch):
        if hatch:
            raise NotImplementedError('set_hatch(%r): hatched patches are not drawn by this sandbox\'s matplotlib' % (hatch,))

    set_fc, set_ec, set_lw = set_facecolor, set_edgecolor, set_linewidth

    def _colors(self):
        face = _colors._wire(self._face, self._alpha) if self._fill and self._face is not None else None
        edge = _colors._wire(self._edge, self._alpha) if self._edge is not None else None
        width = self._linewidth if self._linewidth is not None else (1.0 if edge else 0.0)
        return face, edge, width

    def _legend_entry(self):
        face, edge, width = self._colors()
        return {'label': self._label, 'patch': True, 'color': face, 'edge': edge, 'width': width}


class Rectangle(Patch):
    def __init__(self, xy, width, height, angle=0.0, **kwargs):
        super().__init__(**kwargs)
        self._x, self._y = xy
        self._w, self._h = width, height

    def get_x(self):
        return self._x

    def get_y(self):
        return self._y

    def get_xy(self):
        return (self._x, self._y)

    def get_width(self):
        return self._w

    def get_height(self):
        return self._h

    def get_bbox(self):
        return (self._x, self._y, self._x + self._w, self._y + self._h)

    def set_x(self, x):
        self._x = x

    def set_y(self, y):
        self._y = y

    def set_xy(self, xy):
        self._x, self._y = xy

    def set_width(self, w):
        self._w = w

    def set_height(self, h):
        self._h = h

    def get_center(self):
        return (self._x + self._w / 2, self._y + self._h / 2)

    def _numbers(self, axes):
        x = axes.xaxis._number(self._x)
        y = axes.yaxis._number(self._y)
        return x, y, float(self._w), float(self._h)

    def _limits(self):
        return [self._x, _shift(self._x, self._w)], [self._y, _shift(self._y, self._h)]

    def _wire(self, axes):
        face, edge, width = self._colors()
        x, y, w, h = self._numbers(axes)
        return [{'kind': 'rects', 'x': [x], 'y': [y], 'w': [w], 'h': [h], 'faces': [face], 'edge': edge,
                 'edge_width': width}]


def _shift(value, by):
    try:
        return value + by
    except TypeError:  # a category or date plus a width: the axis converts the start, the width is added after
        return value


class Circle(Patch):
    def __init__(self, xy, radius=5, **kwargs):
        super().__init__(**kwargs)
        self.center, self.radius = xy, radius

    def _limits(self):
        (x, y), r = self.center, self.radius
        return [x - r, x + r], [y - r, y + r]

    def _wire(self, axes):
        face, edge, width = self._colors()
        x, y = self.center
        return [{'kind': 'wedge', 'cx': float(x), 'cy': float(y), 'r': float(self.radius), 'from': 0, 'to': 360,
                 'face': face, 'edge': edge, 'edge_width': width}]


class Wedge(Patch):
    def __init__(self, center, r, theta1, theta2, width=None, **kwargs):
        super().__init__(**kwargs)
        if width is not None:
            raise NotImplementedError('Wedge(width=...): ring-shaped wedges (donut charts) are not drawn by this '
                                      'sandbox\'s matplotlib; draw a full pie, or a white Circle over its centre')
        self.center, self.r, self.theta1, self.theta2 = center, r, theta1, theta2

    def _limits(self):
        (x, y), r = self.center, self.r
        return [x - r, x + r], [y - r, y + r]

    def _wire(self, axes):
        face, edge, width = self._colors()
        return [{'kind': 'wedge', 'cx': float(self.center[0]), 'cy': float(self.center[1]), 'r': float(self.r),
                 'from': float(self.theta1), 'to': float(self.theta2), 'face': face, 'edge': edge,
                 'edge_width': width}]


class Polygon(Patch):
    def __init__(self, xy, closed=True, **kwargs):
        super().__init__(**kwargs)
        self._xy = [tuple(p) for p in xy]

    def _points(self):
        return len(self._xy)

    def get_xy(self):
        return list(self._xy)

    def set_xy(self, xy):
        self._xy = [tuple(p) for p in xy]

    def _limits(self):
        return [p[0] for p in self._xy], [p[1] for p in self._xy]

    def _wire(self, axes):
        face, edge, width = self._colors()
        return [{'kind': 'polygon', 'x': axes.xaxis._numbers([p[0] for p in self._xy]),
                 'y': axes.yaxis._numbers([p[1] for p in self._xy]), 'face': face, 'edge': edge,
                 'edge_width': width}]


class Span(Patch):
    """axhspan/axvspan: a band across the whole axes between two values of one axis ('x' or 'y')."""

    def __init__(self, along, low, high, **kwargs):
        super().__init__(**kwargs)
        self._along, self._low, self._high = along, low, high

    def _limits(self):
        return ([self._low, self._high], None) if self._along == 'x' else (None, [self._low, self._high])

    def _wire(self, axes):
        face, edge, width = self._colors()
        if self._along == 'y':
            (x0, x1), (y0, y1) = axes.get_xlim(), (axes.yaxis._number(self._low), axes.yaxis._number(self._high))
        else:
            (x0, x1), (y0, y1) = (axes.xaxis._number(self._low), axes.xaxis._number(self._high)), axes.get_ylim()
        return [{'kind': 'polygon', 'x': [x0, x1, x1, x0], 'y': [y0, y0, y1, y1], 'face': face, 'edge': edge,
                 'edge_width': width}]


class FancyBboxPatch(Rectangle):
    pass


def _arc(cx, cy, r, theta1, theta2):
    steps = max(2, int(abs(theta2 - theta1) / 5))
    return [(cx + r * math.cos(math.radians(theta1 + (theta2 - theta1) * i / steps)),
             cy + r * math.sin(math.radians(theta1 + (theta2 - theta1) * i / steps))) for i in range(steps + 1)]
