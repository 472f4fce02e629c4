"""Colorbar: the colour scale of a mapped artist (scatter with c=, imshow) beside its axes."""
from matplotlib import colors as _colors, ticker
from matplotlib.text import Text


class Colorbar:
    def __init__(self, ax, mappable, label=''):
        self.ax, self.mappable = ax, mappable
        self._label = Text(0, 0, label)
        self._ticks = None
        self._formatter = None
        mappable.colorbar = self

    def set_label(self, label, loc=None, **kwargs):
        self._label = Text(0, 0, label, **kwargs)

    def set_ticks(self, ticks, *, labels=None, **kwargs):
        self._ticks = [float(t) for t in ticks]

    def set_ticklabels(self, labels, **kwargs):
        self._formatter = ticker.FixedFormatter([str(l) for l in labels])

    def remove(self):
        self.ax._colorbar = None

    @property
    def formatter(self):
        return self._formatter

    @formatter.setter
    def formatter(self, value):
        self._formatter = value

    def update_ticks(self):
        pass

    def _spec(self):
        low, high = self.mappable._limits_of_values()
        if low is None or high is None:
            low, high = 0.0, 1.0
        low, high = float(low), float(high)
        ticks = self._ticks if self._ticks is not None else ticker.MaxNLocator(nbins=6).tick_values(low, high)
        ticks = [t for t in ticks if min(low, high) <= t <= max(low, high)]
        formatter = self._formatter or ticker.ScalarFormatter()
        labels = formatter.format_ticks(ticks)
        cmap = self.mappable.cmap
        colors = [_colors._wire(cmap(i / 255)) for i in range(256)]
        return {'colors': colors, 'low': low, 'high': high,
                'ticks': [{'at': t, 'label': l} for t, l in zip(ticks, labels)], 'label': self._label._as_label()}
