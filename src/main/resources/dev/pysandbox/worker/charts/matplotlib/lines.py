"""Line2D: a line through points, with markers ('o', 's' ...), as plot() makes them."""
from matplotlib import colors as _colors, _style
from matplotlib.artist import Artist


class Line2D(Artist):
    zorder = 2

    def __init__(self, xdata, ydata, linewidth=None, linestyle=None, color=None, marker=None, markersize=None,
                 markeredgewidth=None, markeredgecolor=None, markerfacecolor=None, drawstyle=None, label=None,
                 alpha=None, zorder=None, **kwargs):
        from matplotlib import rcParams
        super().__init__(label=label, alpha=alpha, zorder=zorder)
        self._x, self._y = list(xdata), list(ydata)
        self._width = float(rcParams['lines.linewidth'] if linewidth is None else linewidth)
        self._linestyle = '-' if linestyle is None else linestyle
        _style.dash(self._linestyle, self._width)
        self._color = _colors.to_hex(color, keep_alpha=True) if color is not None else 'C0'
        self._marker = _style.check_marker(marker)
        self._markersize = float(rcParams['lines.markersize'] if markersize is None else markersize)
        self._markerface = markerfacecolor
        self._markeredge = markeredgecolor
        self._drawstyle = drawstyle
        self._x_in = self._y_in = 'data'
        for key, value in kwargs.items():
            setter = getattr(self, 'set_' + key, None)
            if setter is None:
                raise AttributeError('Line2D.set() got an unexpected keyword argument %r' % key)
            setter(value)

    # data
    def get_xdata(self, orig=True):
        return list(self._x)

    def get_ydata(self, orig=True):
        return list(self._y)

    def get_data(self, orig=True):
        return self.get_xdata(), self.get_ydata()

    def set_xdata(self, x):
        self._x = list(x)

    def set_ydata(self, y):
        self._y = list(y)

    def set_data(self, *args):
        x, y = args[0] if len(args) == 1 else args
        self._x, self._y = list(x), list(y)

    # style
    def get_color(self):
        return self._color

    def set_color(self, color):
        _colors.to_rgba(color)
        self._color = color

    def get_linewidth(self):
        return self._width

    def set_linewidth(self, w):
        self._width = float(w)

    def get_linestyle(self):
        return self._linestyle

    def set_linestyle(self, ls):
        _style.dash(ls, self._width)
        self._linestyle = ls

    def get_marker(self):
        return self._marker

    def set_marker(self, marker):
        self._marker = _style.check_marker(marker)

    def set_markersize(self, size):
        self._markersize = float(size)

    def get_markersize(self):
        return self._markersize

    def set_markerfacecolor(self, c):
        self._markerface = c

    def set_markeredgecolor(self, c):
        self._markeredge = c

    def set_markeredgewidth(self, w):
        pass  # the renderer draws marker edges a point wide

    def set_drawstyle(self, ds):
        self._drawstyle = ds

    set_lw, set_ls, set_c, set_ms, set_mfc, set_mec, set_mew = (set_linewidth, set_linestyle, set_color,
                                                                set_markersize, set_markerfacecolor,
                                                                set_markeredgecolor, set_markeredgewidth)
    get_lw, get_ls, get_c = get_linewidth, get_linestyle, get_color

    def _points(self):
        return len(self._x)

    def _limits(self):
        if self._x_in != 'data' and self._y_in != 'data':
            return None
        return (self._x if self._x_in == 'data' else None), (self._y if self._y_in == 'data' else None)

    def _styled(self):
        color = _colors._wire(self._color, self._alpha)
        dash = None if self._linestyle in _style.NO_LINE else _style.dash(self._linestyle, self._width)
        face = _colors._wire(self._markerface if self._markerface is not None else self._color, self._alpha)
        edge = _colors._wire(self._markeredge if self._markeredge is not None else self._color, self._alpha)
        return color, dash, face, edge

    def _wire(self, axes):
        color, dash, face, edge = self._styled()
        step = None
        if self._drawstyle and self._drawstyle.startswith('steps'):
            step = {'steps': 'pre', 'steps-pre': 'pre', 'steps-post': 'post', 'steps-mid': 'mid'}.get(self._drawstyle)
        return [{'kind': 'line', 'x': axes.xaxis._numbers(self._x) if self._x_in == 'data' else self._x,
                 'y': axes.yaxis._numbers(self._y) if self._y_in == 'data' else self._y,
                 'x_in': self._x_in, 'y_in': self._y_in,
                 'color': None if self._linestyle in _style.NO_LINE else color, 'width': self._width, 'dash': dash,
                 'marker': self._marker, 'marker_size': self._markersize, 'marker_face': face, 'marker_edge': edge,
                 'step': step}]

    def _legend_entry(self):
        color, dash, face, edge = self._styled()
        return {'label': self._label, 'line': self._linestyle not in _style.NO_LINE, 'color': color,
                'width': self._width, 'dash': dash, 'marker': self._marker, 'marker_face': face}
