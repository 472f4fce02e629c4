"""Figure: its size, the axes on it and where they go, its title, and how it is saved or shown."""
import os

from matplotlib import _bridge, _data, colors as _colors
from matplotlib._grid import AxesArray
from matplotlib.axes import Axes
from matplotlib.text import Text

_FORMATS = ('png', 'svg')


class SubplotParams:
    def __init__(self, left=None, bottom=None, right=None, top=None, wspace=None, hspace=None):
        from matplotlib import rcParams
        self.left = rcParams['figure.subplot.left'] if left is None else left
        self.bottom = rcParams['figure.subplot.bottom'] if bottom is None else bottom
        self.right = rcParams['figure.subplot.right'] if right is None else right
        self.top = rcParams['figure.subplot.top'] if top is None else top
        self.wspace = rcParams['figure.subplot.wspace'] if wspace is None else wspace
        self.hspace = rcParams['figure.subplot.hspace'] if hspace is None else hspace

    def update(self, left=None, bottom=None, right=None, top=None, wspace=None, hspace=None):
        for name, value in (('left', left), ('bottom', bottom), ('right', right), ('top', top), ('wspace', wspace),
                            ('hspace', hspace)):
            if value is not None:
                setattr(self, name, float(value))


class _Canvas:
    """fig.canvas: agents call draw() before saving; nothing else of a GUI canvas exists here."""

    def __init__(self, figure):
        self.figure = figure

    def draw(self):
        pass

    draw_idle = flush_events = draw

    def get_width_height(self):
        w, h = self.figure.get_size_inches()
        return int(w * self.figure.dpi), int(h * self.figure.dpi)

    def print_figure(self, filename, **kwargs):
        self.figure.savefig(filename, **kwargs)

    def _no_pixels(self, *args, **kwargs):
        raise NotImplementedError('the figure\'s pixels are not available as an array in this sandbox; save it '
                                  'with savefig() and read the file')

    tostring_rgb = tostring_argb = buffer_rgba = copy_from_bbox = _no_pixels

    def mpl_connect(self, *args, **kwargs):
        return 0

    def set_window_title(self, title):
        pass

    manager = None


class Figure:
    def __init__(self, figsize=None, dpi=None, *, facecolor=None, edgecolor=None, linewidth=0.0, frameon=None,
                 subplotpars=None, tight_layout=None, constrained_layout=None, layout=None, num=None, **kwargs):
        from matplotlib import rcParams
        size = figsize if figsize is not None else rcParams['figure.figsize']
        self._width, self._height = _positive(size[0], 'figsize width'), _positive(size[1], 'figsize height')
        self.dpi = float(rcParams['figure.dpi'] if dpi is None else dpi)
        self._facecolor = rcParams['figure.facecolor'] if facecolor is None else facecolor
        _colors.to_rgba(self._facecolor)
        self.subplotpars = subplotpars or SubplotParams()
        self._tight = bool(tight_layout) or bool(constrained_layout) or layout in ('tight', 'constrained')
        self._axes = []
        self._suptitle = None
        self._overlay = None
        self.number = num
        self._points = 0  # points, bars and cells its artists draw: held to the renderer's max_points as they come
        self.canvas = _Canvas(self)
        self._last_drawn = None

    def __repr__(self):
        return '<Figure size %gx%g with %d Axes>' % (self._width * self.dpi, self._height * self.dpi,
                                                     len(self._axes))

    def __getattr__(self, name):
        # Only for names the class does not have: a call of matplotlib's this package does not draw.
        if name.startswith('_'):
            raise AttributeError(name)
        from matplotlib import _refusal
        return _refusal.refusing('Figure', name)

    # axes
    @property
    def axes(self):
        return [a for a in self._axes if a is not self._overlay]

    def get_axes(self):
        return self.axes

    def _add_axes(self, axes):
        self._axes.append(axes)
        from matplotlib import pyplot
        pyplot._current_axes[id(self)] = axes
        return axes

    def add_subplot(self, *args, **kwargs):
        from matplotlib.gridspec import SubplotSpec
        projection = kwargs.pop('projection', None)
        if projection not in (None, 'rectilinear'):
            raise NotImplementedError('add_subplot(projection=%r): only flat axes are drawn by this sandbox\'s '
                                      'matplotlib' % (projection,))
        kwargs.pop('polar', None)
        sharex, sharey = kwargs.pop('sharex', None), kwargs.pop('sharey', None)
        if not args:
            args = (1, 1, 1)
        if len(args) == 1 and isinstance(args[0], SubplotSpec):
            cell = args[0]._cell()
        elif len(args) == 1 and isinstance(args[0], Axes):
            return args[0]
        else:
            if len(args) == 1:
                digits = int(args[0])
                if not 111 <= digits <= 999:
                    raise ValueError('Integer subplot specification must be a three-digit number, not %d' % digits)
                args = (digits // 100, digits // 10 % 10, digits % 10)
            rows, cols, index = int(args[0]), int(args[1]), args[2]
            first, last = index if isinstance(index, tuple) else (index, index)
            if not (1 <= first <= rows * cols and 1 <= last <= rows * cols):
                raise ValueError('num must be an integer with 1 <= num <= %d, not %r' % (rows * cols, index))
            r0, c0 = divmod(first - 1, cols)
            r1, c1 = divmod(last - 1, cols)
            cell = {'rows': rows, 'cols': cols, 'row': r0, 'col': c0, 'rowspan': r1 - r0 + 1, 'colspan': c1 - c0 + 1}
        for existing in self.axes:
            if existing._cell == cell and existing._twin_of is None:
                from matplotlib import pyplot
                pyplot._current_axes[id(self)] = existing
                return existing
        axes = self._add_axes(Axes(self, cell=cell, **kwargs))
        if sharex is not None:
            _share(sharex.xaxis, axes.xaxis)
        if sharey is not None:
            _share(sharey.yaxis, axes.yaxis)
        return axes

    def add_axes(self, rect, **kwargs):
        kwargs.pop('projection', None)
        return self._add_axes(Axes(self, rect=[float(v) for v in rect], **kwargs))

    def subplots(self, nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True, width_ratios=None,
                 height_ratios=None, subplot_kw=None, gridspec_kw=None):
        nrows, ncols = int(nrows), int(ncols)
        if nrows < 1 or ncols < 1:
            raise ValueError('Number of rows and columns must be positive, not %d x %d' % (nrows, ncols))
        gridspec_kw = dict(gridspec_kw or {})
        for ratios in (width_ratios, height_ratios, gridspec_kw.pop('width_ratios', None),
                       gridspec_kw.pop('height_ratios', None)):
            if ratios is not None and len(set(ratios)) > 1:
                raise NotImplementedError('subplots(width_ratios/height_ratios): cells of different sizes are not '
                                          'laid out by this sandbox\'s matplotlib; use fig.add_gridspec and span '
                                          'cells (gs[0, :2]) instead')
        if gridspec_kw:
            self.subplots_adjust(**{k: v for k, v in gridspec_kw.items() if k in
                                    ('left', 'right', 'bottom', 'top', 'wspace', 'hspace')})
        made = []
        for r in range(nrows):
            for c in range(ncols):
                cell = {'rows': nrows, 'cols': ncols, 'row': r, 'col': c, 'rowspan': 1, 'colspan': 1}
                made.append(self._add_axes(Axes(self, cell=cell, **dict(subplot_kw or {}))))
        sharex = {True: 'all', False: 'none'}.get(sharex, sharex)
        sharey = {True: 'all', False: 'none'}.get(sharey, sharey)
        for i, axes in enumerate(made):
            r, c = divmod(i, ncols)
            if sharex == 'all' and i:
                _share(made[0].xaxis, axes.xaxis)
            elif sharex == 'col' and r:
                _share(made[c].xaxis, axes.xaxis)
            if sharey == 'all' and i:
                _share(made[0].yaxis, axes.yaxis)
            elif sharey == 'row' and c:
                _share(made[r * ncols].yaxis, axes.yaxis)
            # Shared axes label only the outer ticks, as matplotlib's subplots does.
            if sharex in ('all', 'col') and r < nrows - 1:
                axes.xaxis._ticklabels_visible = False
            if sharey in ('all', 'row') and c > 0:
                axes.yaxis._ticklabels_visible = False
        if squeeze and nrows == 1 and ncols == 1:
            return made[0]
        if squeeze and (nrows == 1 or ncols == 1):
            return AxesArray(made, (len(made),))
        return AxesArray(made, (nrows, ncols))

    def add_gridspec(self, nrows=1, ncols=1, **kwargs):
        from matplotlib.gridspec import GridSpec
        return GridSpec(nrows, ncols, figure=self, **kwargs)

    def delaxes(self, ax):
        if ax in self._axes:
            self._axes.remove(ax)

    def gca(self):
        from matplotlib import pyplot
        current = pyplot._current_axes.get(id(self))
        if current is None or current not in self._axes:
            current = self.add_subplot(1, 1, 1)
        return current

    def sca(self, ax):
        from matplotlib import pyplot
        pyplot._current_axes[id(self)] = ax
        return ax

    def clear(self, keep_observers=False):
        self._axes, self._suptitle, self._overlay, self._points = [], None, None, 0

    clf = clear

    # figure-level text
    def suptitle(self, t, **kwargs):
        kwargs.setdefault('fontsize', kwargs.pop('size', 12.0))
        for key in ('x', 'y', 'ha', 'va', 'horizontalalignment', 'verticalalignment'):
            kwargs.pop(key, None)
        self._suptitle = Text(0, 0, t, **kwargs)
        return self._suptitle

    def get_suptitle(self):
        return self._suptitle.get_text() if self._suptitle else ''

    def _overlay_axes(self):
        """An invisible axes over the whole figure: figure-level texts and legends are drawn in it."""
        if self._overlay is None:
            self._overlay = Axes(self, rect=[0.0, 0.0, 1.0, 1.0])
            self._overlay._axis_on = False
            self._overlay._frame_on = False
            self._axes.append(self._overlay)
        return self._overlay

    def text(self, x, y, s, fontdict=None, **kwargs):
        kwargs.pop('transform', None)
        overlay = self._overlay_axes()
        return overlay._add(Text(x, y, s, coords=('axes', 'axes'), **dict(fontdict or {}, **kwargs)))

    def supxlabel(self, t, **kwargs):
        return self.text(0.5, 0.01, t, ha='center', va='bottom', **kwargs)

    def supylabel(self, t, **kwargs):
        return self.text(0.02, 0.5, t, ha='left', va='center', rotation=90, **kwargs)

    def legend(self, *args, loc=None, **kwargs):
        handles, labels = [], []
        for axes in self.axes:
            h, l = axes.get_legend_handles_labels()
            handles += h
            labels += l
        if len(args) == 2:
            handles, labels = args
        elif len(args) == 1:
            labels = args[0]
        overlay = self._overlay_axes()
        return overlay.legend(handles, labels, loc=loc or 'upper right', **kwargs)

    def colorbar(self, mappable, cax=None, ax=None, *, label='', shrink=None, orientation=None, fraction=None,
                 pad=None, aspect=None, **kwargs):
        from matplotlib.colorbar import Colorbar
        if orientation not in (None, 'vertical'):
            raise NotImplementedError('colorbar(orientation=%r): only vertical colour bars are drawn by this '
                                      'sandbox\'s matplotlib' % (orientation,))
        if cax is not None:
            raise NotImplementedError('colorbar(cax=...): the colour bar is placed beside its axes (ax=...) here')
        if isinstance(ax, AxesArray):
            ax = list(ax.flat)[-1]
        elif isinstance(ax, (list, tuple)):
            ax = list(ax)[-1]
        target = ax or getattr(mappable, 'axes', None) or self.gca()
        colorbar = Colorbar(target, mappable, label=label)
        target._colorbar = colorbar
        return colorbar

    # layout
    def tight_layout(self, *, pad=1.08, h_pad=None, w_pad=None, rect=None):
        self._tight = True

    def set_tight_layout(self, tight):
        self._tight = bool(tight)

    def set_layout_engine(self, layout=None, **kwargs):
        self._tight = layout in ('tight', 'constrained')

    def subplots_adjust(self, left=None, bottom=None, right=None, top=None, wspace=None, hspace=None):
        self.subplotpars.update(left, bottom, right, top, wspace, hspace)
        self._tight = False

    def autofmt_xdate(self, bottom=0.2, rotation=30, ha='right', which='major'):
        for axes in self.axes:
            axes.xaxis._rotation = float(rotation)
            axes.xaxis._align = ha
        if not self._tight:
            self.subplotpars.update(bottom=bottom)

    def align_labels(self, axs=None):
        pass

    align_xlabels = align_ylabels = align_labels

    # size
    def set_size_inches(self, w, h=None, forward=True):
        if h is None:
            w, h = w
        self._width, self._height = _positive(w, 'width'), _positive(h, 'height')

    def get_size_inches(self):
        return (self._width, self._height)

    def set_figwidth(self, w):
        self._width = _positive(w, 'width')

    def set_figheight(self, h):
        self._height = _positive(h, 'height')

    def get_figwidth(self):
        return self._width

    def get_figheight(self):
        return self._height

    def set_dpi(self, dpi):
        self.dpi = float(dpi)

    def get_dpi(self):
        return self.dpi

    def set_facecolor(self, color):
        _colors.to_rgba(color)
        self._facecolor = color

    def get_facecolor(self):
        return _colors.to_rgba(self._facecolor)

    # drawing
    def _spec(self, crop=False, facecolor=None):
        axes = list(self._axes)
        index = lambda a: axes.index(a) if a in axes else -1
        params = self.subplotpars
        suptitle = self._suptitle._as_label() if self._suptitle is not None else None
        return {'width': self._width, 'height': self._height, 'dpi': self.dpi,
                'facecolor': _colors._wire(self._facecolor if facecolor is None else facecolor),
                'suptitle': suptitle,
                'layout': {'left': params.left, 'right': params.right, 'bottom': params.bottom, 'top': params.top,
                           'wspace': params.wspace, 'hspace': params.hspace, 'tight': self._tight, 'crop': crop},
                'axes': [a._spec(index) for a in axes]}

    def savefig(self, fname, *, dpi=None, format=None, bbox_inches=None, pad_inches=None, facecolor=None,
                transparent=False, **kwargs):
        kwargs.pop('edgecolor', None)
        kwargs.pop('metadata', None)
        kwargs.pop('orientation', None)
        kwargs.pop('backend', None)
        if kwargs:
            raise TypeError('savefig() got an unexpected keyword argument %r' % next(iter(kwargs)))
        path = os.fspath(fname) if isinstance(fname, (str, os.PathLike)) else None
        if format is None:
            extension = os.path.splitext(path)[1][1:].lower() if path else ''
            format = extension or 'png'
            if path and not extension:
                path += '.png'
        format = str(format).lower()
        if format == 'jpeg':
            format = 'jpg'
        if format not in _FORMATS:
            raise NotImplementedError('savefig(format=%r): this sandbox\'s matplotlib writes png and svg; save as '
                                      '.png or .svg instead' % (format,))
        if dpi == 'figure' or dpi is None:
            dpi = self.dpi
        spec = self._spec()
        saved = dict(spec, layout=dict(spec['layout'], crop=bbox_inches == 'tight'))
        if facecolor is not None:
            saved['facecolor'] = _colors._wire(facecolor)
        name = os.path.basename(path) if path else 'figure-%s.%s' % (self.number or 1, format)
        data = _bridge.draw(saved, format, dpi, name)
        self._last_drawn = spec
        if path is None:
            fname.write(data)
            return None
        with open(path, 'wb') as out:
            out.write(data)
        return None

    print_figure = savefig

    def show(self, warn=True):
        from matplotlib import pyplot
        pyplot._show_figure(self)

    def draw(self, renderer=None):
        pass

    def draw_without_rendering(self):
        pass

    def get_tightbbox(self, renderer=None):
        raise NotImplementedError('get_tightbbox(): use savefig(bbox_inches="tight")')


def _share(main, other):
    group = main._group
    for axis in other._group:
        if axis not in group:
            group.append(axis)
            axis._group = group
    if main.units is not None:
        for axis in group:
            axis.units = main.units


def _positive(value, what):
    number = _data.number(value)
    if not number > 0 or number == float('inf'):
        raise ValueError('figure size must be positive finite not %r (%s)' % (value, what))
    return number


def figaspect(arg):
    ratio = float(arg)
    return (4.8 / ratio, 4.8) if ratio > 1 else (6.4, 6.4 * ratio)
