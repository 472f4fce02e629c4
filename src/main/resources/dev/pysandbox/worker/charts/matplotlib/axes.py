"""Axes: one plot area with its two axes, what it draws (the plot kinds are in _plots.py), its titles, grid and
legend; and how it describes itself to the renderer."""
from matplotlib import colors as _colors, _data, _style
from matplotlib._plots import Plots
from matplotlib.axis import Axis
from matplotlib.text import Text, font_size

_LEGEND_PLACES = {0: 'best', 1: 'upper right', 2: 'upper left', 3: 'lower left', 4: 'lower right', 5: 'right',
                  6: 'center left', 7: 'center right', 8: 'lower center', 9: 'upper center', 10: 'center'}


class Spine:
    def __init__(self):
        self._visible = True

    def set_visible(self, b):
        self._visible = bool(b)

    def get_visible(self):
        return self._visible

    def set_color(self, c):
        pass  # spines are drawn black, a point wide, as matplotlib's default

    set_linewidth = set_edgecolor = set_linestyle = set_alpha = set_color

    def set_position(self, position):
        raise NotImplementedError('spines[...].set_position(%r): moved spines are not drawn by this sandbox\'s '
                                  'matplotlib; use axhline/axvline for lines through zero' % (position,))

    def set_bounds(self, low=None, high=None):
        pass


class Spines(dict):
    def __init__(self):
        super().__init__(left=Spine(), right=Spine(), bottom=Spine(), top=Spine())

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        if isinstance(key, (list, tuple)):
            return _SpineGroup([dict.__getitem__(self, k) for k in key])
        if isinstance(key, slice):
            return _SpineGroup(list(self.values()))
        return dict.__getitem__(self, key)


class _SpineGroup(list):
    def __getattr__(self, name):
        def each(*args, **kwargs):
            for spine in self:
                getattr(spine, name)(*args, **kwargs)
        return each


class _Transform:
    """ax.transAxes, ax.transData, fig.transFigure: which coordinates a text's position is in."""

    def __init__(self, coords):
        self._coords = coords


class Axes(Plots):
    name = 'rectilinear'
    transAxes = _Transform('axes')
    transData = _Transform('data')

    def __init__(self, fig, cell=None, rect=None, **kwargs):
        from matplotlib import rcParams
        self.figure = fig
        self._cell, self._rect = cell, rect
        self.xaxis, self.yaxis = Axis(self, 'x'), Axis(self, 'y')
        self._children = []
        self._titles = {}
        self._grid = {'x': bool(rcParams['axes.grid']), 'y': bool(rcParams['axes.grid']),
                      'color': rcParams['grid.color'], 'width': rcParams['grid.linewidth'],
                      'linestyle': rcParams['grid.linestyle'], 'alpha': rcParams['grid.alpha']}
        self._legend = None
        self.spines = Spines()
        self._facecolor = rcParams['axes.facecolor']
        self._axis_on = True
        self._equal = False
        self._twin_of = None
        self._colorbar = None
        self._cycle = 0
        self._frame_on = True
        for key, value in kwargs.items():
            setter = getattr(self, 'set_' + key, None)
            if setter is None:
                raise AttributeError('Axes got an unexpected keyword argument %r' % key)
            setter(value)

    def __repr__(self):
        return '<Axes: %s>' % (self._titles['center'].get_text() if 'center' in self._titles else '')

    def __getattr__(self, name):
        # Only for names the class does not have: a call of matplotlib's this package does not draw.
        if name.startswith('_'):
            raise AttributeError(name)
        from matplotlib import _refusal
        return _refusal.refusing('Axes', name)

    # what it holds
    def _artists(self):
        return [a for a in self._children if a.get_visible()]

    def _add(self, artist):
        from matplotlib import _bridge
        points = artist._points()
        limit = _bridge.limits()['max_points']
        if self.figure._points + points > limit:
            raise ValueError('the figure would have %s points, more than the %s a figure may draw here; plot fewer '
                             'points (every n-th, or an aggregate such as a histogram)'
                             % (format(self.figure._points + points, ','), format(limit, ',')))
        self.figure._points += points
        artist.axes, artist.figure = self, self.figure
        limits = artist._limits()
        if limits is not None:
            if limits[0] is not None:
                self.xaxis._register(list(limits[0]))
            if limits[1] is not None:
                self.yaxis._register(list(limits[1]))
        self._children.append(artist)
        return artist

    def _remove(self, artist):
        if artist in self._children:
            self._children.remove(artist)

    def add_artist(self, artist):
        return self._add(artist)

    add_line = add_patch = add_collection = add_image = add_artist

    def _kind(self, name):
        from matplotlib import lines, patches, collections, text, image
        kinds = {'lines': lines.Line2D, 'patches': patches.Patch, 'collections': collections.Collection,
                 'texts': text.Text, 'images': image.AxesImage}
        return [a for a in self._children if isinstance(a, kinds[name])]

    lines = property(lambda self: self._kind('lines'))
    patches = property(lambda self: self._kind('patches'))
    collections = property(lambda self: self._kind('collections'))
    texts = property(lambda self: self._kind('texts'))
    images = property(lambda self: self._kind('images'))

    def get_children(self):
        return list(self._children)

    def has_data(self):
        return any(a._limits() is not None for a in self._children)

    def _next_color(self):
        from matplotlib.colors import _cycle
        color = _cycle[self._cycle % len(_cycle)]
        self._cycle += 1
        return color

    def cla(self):
        figure, cell, rect = self.figure, self._cell, self._rect
        self.__init__(figure, cell=cell, rect=rect)

    clear = cla

    def _size_inches(self):
        """The axes' size in inches with the default subplot parameters: how many ticks fit."""
        width, height = self.figure.get_size_inches()
        if self._rect is not None:
            return width * self._rect[2], height * self._rect[3]
        cell = self._cell or {'rows': 1, 'cols': 1, 'rowspan': 1, 'colspan': 1}
        params = self.figure.subplotpars
        cols, rows = cell['cols'], cell['rows']
        w = (params.right - params.left) / (cols + params.wspace * (cols - 1))
        h = (params.top - params.bottom) / (rows + params.hspace * (rows - 1))
        return (width * w * (cell['colspan'] + params.wspace * (cell['colspan'] - 1)),
                height * h * (cell['rowspan'] + params.hspace * (cell['rowspan'] - 1)))

    # titles and labels
    def set_title(self, label, fontdict=None, loc=None, pad=None, *, y=None, **kwargs):
        loc = loc or 'center'
        if loc not in ('left', 'center', 'right'):
            raise ValueError("loc must be 'left', 'center' or 'right', not %r" % (loc,))
        kwargs = dict(fontdict or {}, **kwargs)
        kwargs.setdefault('fontsize', kwargs.pop('size', 12.0))
        self._titles[loc] = Text(0, 0, label, **kwargs)
        return self._titles[loc]

    def get_title(self, loc='center'):
        title = self._titles.get(loc)
        return title.get_text() if title is not None else ''

    def set_xlabel(self, xlabel, fontdict=None, labelpad=None, *, loc=None, **kwargs):
        return self.xaxis.set_label_text(xlabel, fontdict, **kwargs)

    def set_ylabel(self, ylabel, fontdict=None, labelpad=None, *, loc=None, **kwargs):
        return self.yaxis.set_label_text(ylabel, fontdict, **kwargs)

    def get_xlabel(self):
        return self.xaxis.label.get_text()

    def get_ylabel(self):
        return self.yaxis.label.get_text()

    # limits and scales
    def set_xlim(self, left=None, right=None, *, emit=True, auto=False, xmin=None, xmax=None):
        if isinstance(left, (tuple, list)):
            left, right = left
        left = xmin if left is None else left
        right = xmax if right is None else right
        self.xaxis._register([v for v in (left, right) if v is not None])
        current = self.xaxis._lim
        self.xaxis._set_lim(current[0] if left is None else left, current[1] if right is None else right)
        return self.get_xlim()

    def set_ylim(self, bottom=None, top=None, *, emit=True, auto=False, ymin=None, ymax=None):
        if isinstance(bottom, (tuple, list)):
            bottom, top = bottom
        bottom = ymin if bottom is None else bottom
        top = ymax if top is None else top
        self.yaxis._register([v for v in (bottom, top) if v is not None])
        current = self.yaxis._lim
        self.yaxis._set_lim(current[0] if bottom is None else bottom, current[1] if top is None else top)
        return self.get_ylim()

    def get_xlim(self):
        return self.xaxis._limits()

    def get_ylim(self):
        return self.yaxis._limits()

    def set_xscale(self, value, **kwargs):
        self.xaxis._scale = _scale(value)

    def set_yscale(self, value, **kwargs):
        self.yaxis._scale = _scale(value)

    def get_xscale(self):
        return self.xaxis._scale

    def get_yscale(self):
        return self.yaxis._scale

    def invert_xaxis(self):
        self.xaxis._inverted = not self.xaxis._inverted

    def invert_yaxis(self):
        self.yaxis._inverted = not self.yaxis._inverted

    def xaxis_inverted(self):
        return self.xaxis._inverted

    def yaxis_inverted(self):
        return self.yaxis._inverted

    def margins(self, *args, x=None, y=None, tight=True):
        if len(args) == 1:
            x = y = args[0]
        elif len(args) == 2:
            x, y = args
        if x is not None:
            self.xaxis._margin = float(x)
        if y is not None:
            self.yaxis._margin = float(y)

    def set_xmargin(self, m):
        self.xaxis._margin = float(m)

    def set_ymargin(self, m):
        self.yaxis._margin = float(m)

    def autoscale(self, enable=True, axis='both', tight=None):
        if enable:
            for a in ((self.xaxis,) if axis == 'x' else (self.yaxis,) if axis == 'y' else (self.xaxis, self.yaxis)):
                a._lim = [None, None]
                if tight:
                    a._margin = 0.0

    def autoscale_view(self, *args, **kwargs):
        pass

    def relim(self, *args, **kwargs):
        pass

    def set_aspect(self, aspect, adjustable=None, anchor=None, share=False):
        if aspect in ('equal', 1, 1.0):
            self._equal = True
        elif aspect == 'auto':
            self._equal = False
        else:
            raise NotImplementedError('set_aspect(%r): only "equal" and "auto" aspects are drawn by this sandbox\'s '
                                      'matplotlib' % (aspect,))

    def axis(self, arg=None, **kwargs):
        if isinstance(arg, (list, tuple)) and len(arg) == 4:
            self.set_xlim(arg[0], arg[1])
            self.set_ylim(arg[2], arg[3])
        elif arg in ('off', False):
            self._axis_on = False
        elif arg in ('on', True):
            self._axis_on = True
        elif arg in ('equal', 'scaled', 'square', 'image'):
            self._equal = True
            if arg == 'image':
                self.margins(0)
        elif arg == 'tight':
            self.margins(0)
        elif arg not in (None, 'auto', 'normal'):
            raise ValueError('Unrecognized string %r to axis; try "on", "off", "equal", "tight" or "auto"' % (arg,))
        if kwargs:
            self.set_xlim(kwargs.get('xmin'), kwargs.get('xmax'))
            self.set_ylim(kwargs.get('ymin'), kwargs.get('ymax'))
        return self.get_xlim() + self.get_ylim()

    def set_axis_off(self):
        self._axis_on = False

    def set_axis_on(self):
        self._axis_on = True

    def set_frame_on(self, b):
        self._frame_on = bool(b)

    def set_facecolor(self, color):
        _colors.to_rgba(color)
        self._facecolor = color

    set_fc = set_facecolor

    def get_facecolor(self):
        return _colors.to_rgba(self._facecolor)

    # ticks
    def set_xticks(self, ticks, labels=None, *, minor=False, **kwargs):
        return self.xaxis.set_ticks(ticks, labels, minor=minor, **kwargs)

    def set_yticks(self, ticks, labels=None, *, minor=False, **kwargs):
        return self.yaxis.set_ticks(ticks, labels, minor=minor, **kwargs)

    def set_xticklabels(self, labels, *, fontdict=None, minor=False, **kwargs):
        return self.xaxis.set_ticklabels(labels, minor=minor, **kwargs)

    def set_yticklabels(self, labels, *, fontdict=None, minor=False, **kwargs):
        return self.yaxis.set_ticklabels(labels, minor=minor, **kwargs)

    def get_xticks(self, minor=False):
        return self.xaxis.get_ticklocs()

    def get_yticks(self, minor=False):
        return self.yaxis.get_ticklocs()

    def get_xticklabels(self, minor=False, which=None):
        return self.xaxis.get_ticklabels(minor)

    def get_yticklabels(self, minor=False, which=None):
        return self.yaxis.get_ticklabels(minor)

    def tick_params(self, axis='both', which='major', reset=False, **kwargs):
        if which == 'minor':
            return
        rotation = kwargs.pop('labelrotation', kwargs.pop('rotation', None))
        axes = {'x': (self.xaxis,), 'y': (self.yaxis,)}.get(axis, (self.xaxis, self.yaxis))
        for a in axes:
            if rotation is not None:
                a._rotation = float(rotation)
            for flag in ('labelbottom', 'labelleft', 'labeltop', 'labelright'):
                if flag in kwargs and kwargs[flag] is False:
                    a._ticklabels_visible = False
                elif flag in kwargs and kwargs[flag] is True:
                    a._ticklabels_visible = True

    def minorticks_on(self):
        pass  # minor ticks are not drawn by this sandbox's matplotlib; major ticks and labels are unchanged

    def minorticks_off(self):
        pass

    def locator_params(self, axis='both', tight=None, **kwargs):
        nbins = kwargs.get('nbins')
        if nbins is not None:
            from matplotlib import ticker
            for a in {'x': (self.xaxis,), 'y': (self.yaxis,)}.get(axis, (self.xaxis, self.yaxis)):
                a._locator = ticker.MaxNLocator(nbins=nbins)

    def ticklabel_format(self, *, axis='both', style='', scilimits=None, useOffset=None, useLocale=None,
                         useMathText=None):
        from matplotlib import ticker
        for a in {'x': (self.xaxis,), 'y': (self.yaxis,)}.get(axis, (self.xaxis, self.yaxis)):
            formatter = ticker.ScalarFormatter()
            formatter.set_scientific(style not in ('plain',))
            if scilimits is not None:
                formatter.set_powerlimits(scilimits)
            a._formatter = formatter

    # grid and legend
    def grid(self, visible=None, which='major', axis='both', **kwargs):
        if which == 'minor':
            return
        if visible is None and not kwargs:
            visible = not (self._grid['x'] or self._grid['y'])
        elif visible is None:
            visible = True
        for name in ('x', 'y'):
            if axis in (name, 'both'):
                self._grid[name] = bool(visible)
        color = kwargs.pop('color', kwargs.pop('c', None))
        if color is not None:
            _colors.to_rgba(color)
            self._grid['color'] = color
        width = kwargs.pop('linewidth', kwargs.pop('lw', None))
        if width is not None:
            self._grid['width'] = float(width)
        style = kwargs.pop('linestyle', kwargs.pop('ls', None))
        if style is not None:
            _style.dash(style, 1)
            self._grid['linestyle'] = style
        if 'alpha' in kwargs:
            self._grid['alpha'] = kwargs.pop('alpha')

    def get_legend_handles_labels(self, legend_handler_map=None):
        handles = [a for a in self._children if a.get_label() and not a.get_label().startswith('_')
                   and a._legend_entry() is not None]
        for container in getattr(self, '_containers', []):
            if container.get_label() and not container.get_label().startswith('_'):
                handles.append(container)
        handles = [h for h in handles if not (hasattr(h, '_in_container') and h._in_container)]
        return handles, [h.get_label() for h in handles]

    def legend(self, *args, loc=None, title=None, ncol=1, ncols=None, fontsize=None, frameon=None,
               bbox_to_anchor=None, handles=None, labels=None, **kwargs):
        if len(args) == 2:
            handles, labels = args
        elif len(args) == 1:
            labels = args[0]
        if handles is None:
            found, found_labels = self.get_legend_handles_labels()
            if labels is not None:
                found = [a for a in self._children if a._legend_entry() is not None]
                found_labels = list(labels)
            handles, labels = found, found_labels
        elif labels is None:
            labels = [h.get_label() for h in handles]
        entries = []
        for handle, label in zip(handles, labels):
            entry = handle._legend_entry() if not hasattr(handle, 'patches') else handle.patches[0]._legend_entry() \
                if handle.patches else None
            if entry is not None:
                entry = dict(entry, label=str(label))
                entries.append(entry)
        if isinstance(loc, int):
            loc = _LEGEND_PLACES.get(loc, 'best')
        if loc is not None and loc not in _LEGEND_PLACES.values():
            raise ValueError('%r is not a valid value for loc; supported values are %s' % (
                loc, ', '.join(repr(p) for p in _LEGEND_PLACES.values())))
        anchor = None
        if bbox_to_anchor is not None:
            anchor = [float(v) for v in tuple(bbox_to_anchor)[:2]]
        from matplotlib import rcParams
        self._legend = {'loc': loc or ('upper left' if anchor else rcParams['legend.loc']), 'title': title,
                        'columns': int(ncols or ncol), 'frame': rcParams['legend.frameon'] if frameon is None
                        else bool(frameon), 'size': font_size(fontsize, 10.0), 'anchor': anchor, 'entries': entries}
        return _Legend(self)

    def get_legend(self):
        return _Legend(self) if self._legend else None

    # twins
    def twinx(self):
        twin = self.figure._add_axes(Axes(self.figure, cell=self._cell, rect=self._rect))
        twin._twin_of = self
        twin.xaxis._group = self.xaxis._group
        self.xaxis._group.append(twin.xaxis)
        twin.yaxis._side = 'right'
        twin._cycle = self._cycle
        return twin

    def twiny(self):
        raise NotImplementedError('twiny(): a second x axis is not drawn by this sandbox\'s matplotlib; use twinx() '
                                  'for a second y axis, or a second subplot')

    def get_figure(self):
        return self.figure

    def get_position(self):
        return self._rect

    def set_position(self, pos):
        self._rect, self._cell = list(pos), None

    def set_prop_cycle(self, *args, **kwargs):
        colors = kwargs.get('color')
        if colors is None and args and hasattr(args[0], 'by_key'):
            colors = args[0].by_key().get('color')
        if colors:
            _colors._set_cycle(colors)

    def label_outer(self):
        cell = self._cell
        if cell is None:
            return
        if cell['row'] + cell['rowspan'] < cell['rows']:
            self.xaxis._ticklabels_visible = False
            self.xaxis.label.set_text('')
        if cell['col'] > 0:
            self.yaxis._ticklabels_visible = False
            self.yaxis.label.set_text('')

    # the description the renderer draws
    def _spec(self, index):
        artists = []
        for artist in sorted(self._artists(), key=lambda a: a.zorder):
            artists.extend(artist._wire(self))
        titles = {loc: title._as_label() for loc, title in self._titles.items() if title._as_label()}
        grid = None
        if self._grid['x'] or self._grid['y']:
            grid = {'x': self._grid['x'], 'y': self._grid['y'],
                    'color': _colors._wire(self._grid['color'], self._grid['alpha']),
                    'width': self._grid['width'], 'dash': _style.dash(self._grid['linestyle'], self._grid['width'])}
        twin = self._twin_of is not None
        x = self.xaxis._spec()
        if twin:
            x = dict(x, ticks=[], label=None, offset=None)
        spines = [side for side, spine in self.spines.items() if spine.get_visible()] if self._frame_on else []
        return {'cell': self._cell, 'rect': self._rect, 'twin_of': index(self._twin_of) if twin else -1,
                'facecolor': _colors._wire(self._facecolor), 'spines': [] if twin else spines,
                'visible': self._axis_on, 'equal': self._equal, 'x': x, 'y': self.yaxis._spec(),
                'titles': titles or None, 'grid': grid, 'legend': self._legend, 'colorbar': self._colorbar_spec(),
                'artists': artists}

    def _colorbar_spec(self):
        if self._colorbar is None:
            return None
        return self._colorbar._spec()


def _scale(value):
    if value in ('linear', 'log'):
        return value
    if value == 'symlog':
        raise NotImplementedError("set_scale('symlog'): only 'linear' and 'log' scales are drawn by this sandbox's "
                                  "matplotlib")
    raise ValueError("%r is not a valid value for scale; supported values are 'linear', 'log'" % (value,))


class _Legend:
    def __init__(self, axes):
        self._axes = axes

    def remove(self):
        self._axes._legend = None

    def set_title(self, title):
        self._axes._legend['title'] = title

    def get_texts(self):
        return [Text(0, 0, e['label']) for e in self._axes._legend['entries']]

    def set_frame_on(self, b):
        self._axes._legend['frame'] = bool(b)

    def get_frame(self):
        return self

    def set_alpha(self, a):
        pass

    set_facecolor = set_edgecolor = set_linewidth = set_alpha

    def set_visible(self, b):
        if not b:
            self._axes._legend = None
