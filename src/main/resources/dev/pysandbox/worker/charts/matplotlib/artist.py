"""The base of everything drawn: a label, visibility, z-order and alpha, and matplotlib's set_*/get_* calls."""


class Artist:
    zorder = 1

    def __init__(self, label=None, alpha=None, visible=True, zorder=None):
        self._label = '' if label is None else str(label)
        self._alpha = alpha
        self._visible = visible
        self.axes = None
        self.figure = None
        if zorder is not None:
            self.zorder = zorder

    def get_label(self):
        return self._label

    def set_label(self, s):
        self._label = '' if s is None else str(s)

    def get_alpha(self):
        return self._alpha

    def set_alpha(self, alpha):
        self._alpha = alpha

    def get_visible(self):
        return self._visible

    def set_visible(self, b):
        self._visible = bool(b)

    def set_zorder(self, level):
        self.zorder = level

    def get_zorder(self):
        return self.zorder

    def set(self, **kwargs):
        for key, value in kwargs.items():
            setter = getattr(self, 'set_' + key, None)
            if setter is None:
                raise AttributeError('%s.set() got an unexpected keyword argument %r' % (type(self).__name__, key))
            setter(value)
        return self

    def update(self, props):
        return self.set(**props)

    def remove(self):
        if self.axes is not None:
            self.axes._remove(self)
            self.axes = None

    def _legend_entry(self):
        """The legend's sample for this artist, as the renderer reads it, or None when it has none."""
        return None

    def _limits(self):
        """(xs, ys): the data values that decide the axes' limits, or None when it decides nothing."""
        return None

    def _points(self):
        """How many points (bars, cells) it draws, as the renderer counts them against max_points."""
        return 1

    def _sticky(self):
        """(x values, y values) the automatic limits stop at rather than add a margin beyond (a bar's base)."""
        return (), ()

    def _wire(self, axes):
        """What the renderer draws for this artist: a list of the renderer's artist dicts."""
        return []


def setp(obj, *args, **kwargs):
    """Sets properties on an artist or a list of them, as plt.setp(ax.get_xticklabels(), rotation=45) does."""
    targets = obj if isinstance(obj, (list, tuple)) else [obj]
    if args:
        kwargs.update(dict(zip(args[::2], args[1::2])))
    for target in targets:
        target.set(**kwargs)
    return [None] * len(targets)


def getp(obj, name):
    return getattr(obj, 'get_' + name)()
