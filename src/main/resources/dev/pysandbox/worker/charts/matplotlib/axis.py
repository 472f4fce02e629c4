"""An axes' x or y axis: its units (numbers, dates or categories), limits (set, or scaled to the data with
matplotlib's 5% margins), scale, ticks and their labels, and its label."""
import math

from matplotlib import _data, dates as _dates, ticker
from matplotlib.text import Text

_INF = float('inf')


class Axis:
    def __init__(self, axes, name):
        self.axes, self.axis_name = axes, name
        self.units = None  # 'number', 'date' or 'category', from the first data plotted
        self._categories = {}
        self.label = Text(0, 0, '')
        self._lim = [None, None]
        self._inverted = False
        self._scale = 'linear'
        self._locator = None
        self._formatter = None
        self._ticks = None
        self._ticklabels = None
        self._rotation = 0.0
        self._align = 'center'
        self._side = 'bottom' if name == 'x' else 'left'
        self._visible = True
        self._ticklabels_visible = True
        self._margin = 0.05
        self._group = [self]  # axes that share this axis (subplots(sharex=True), twinx)
        self.isDefault_label = True

    # units
    def _register(self, values):
        """Notes the units of data plotted on this axis, and the order of its categories."""
        values = [v for v in values if v is not None]
        if not values:
            return
        kind = _data.kind_of(values)
        if self.units is None:
            for axis in self._group:
                axis.units = kind
        if kind == 'category':
            categories = self._group[0]._categories
            for value in values:
                if isinstance(value, str) and value not in categories:
                    categories[value] = float(len(categories))

    def _number(self, value):
        if value is None:
            return float('nan')
        if isinstance(value, str):
            categories = self._group[0]._categories
            if value not in categories:
                categories[value] = float(len(categories))
            return categories[value]
        if _data.is_date(value):
            return _dates.date2num(value)
        return _data.number(value)

    def _numbers(self, values):
        return [self._number(v) for v in values]

    # limits
    def _set_lim(self, low, high):
        for axis in self._group:
            axis._lim = [low, high]

    def get_view_interval(self):
        return tuple(self._limits())

    def _data_range(self):
        low, high = _INF, -_INF
        sticky = []
        for axis in self._group:
            for artist in axis.axes._artists():
                limits = artist._limits()
                if limits is None:
                    continue
                values = limits[0] if self.axis_name == 'x' else limits[1]
                if values is None:
                    continue
                for value in axis._numbers(values):
                    if value == value and value not in (_INF, -_INF) and (self._scale != 'log' or value > 0):
                        low, high = min(low, value), max(high, value)
                stuck = artist._sticky()[0 if self.axis_name == 'x' else 1]
                sticky.extend(axis._number(v) for v in stuck)
        return low, high, sticky

    def _limits(self):
        """(low, high) as drawn: set by the user, or the data's range with margins; reversed when inverted."""
        low, high = self._lim
        if low is None or high is None:
            data_low, data_high, sticky = self._data_range()
            if data_low > data_high:
                data_low, data_high = (1.0, 10.0) if self._scale == 'log' else (0.0, 1.0)
                sticky = []
            if self._scale == 'log':
                span = math.log10(data_high) - math.log10(data_low)
                pad = span * self._margin if span > 0 else 1
                auto_low = 10 ** (math.log10(data_low) - pad)
                auto_high = 10 ** (math.log10(data_high) + pad)
            else:
                span = data_high - data_low
                pad = span * self._margin if span > 0 else (abs(data_low) * 0.05 if data_low else 0.05)
                auto_low, auto_high = data_low - pad, data_high + pad
            # A bar's base or an image's edge is where the axis stops: no margin beyond it.
            if any(s == data_low for s in sticky):
                auto_low = data_low
            if any(s == data_high for s in sticky):
                auto_high = data_high
            if auto_low == auto_high:
                auto_low, auto_high = auto_low - 1, auto_high + 1
            low = auto_low if low is None else self._number(low)
            high = auto_high if high is None else self._number(high)
        else:
            low, high = self._number(low), self._number(high)
        if self._inverted:
            low, high = high, low
        return low, high

    # ticks
    def _length_points(self):
        width, height = self.axes._size_inches()
        return (width if self.axis_name == 'x' else height) * 72

    def _default_locator(self):
        if self._scale == 'log':
            return ticker.LogLocator()
        if self.units == 'date':
            return _dates.AutoDateLocator()
        locator = ticker.AutoLocator()
        per_tick = 10 * (3 if self.axis_name == 'x' else 2)
        locator._auto_bins = max(1, min(9, int(self._length_points() // per_tick)))
        return locator

    def _default_formatter(self, locator):
        if self._scale == 'log':
            return ticker.LogFormatter()
        if self.units == 'date':
            return _dates.AutoDateFormatter(locator)
        return ticker.ScalarFormatter()

    def _tick_spec(self, low, high):
        """[{at, label}], and the offset text, for an axis that runs from low to high."""
        if self.units == 'category' and self._ticks is None and self._locator is None:
            categories = self._group[0]._categories
            ticks = list(categories.values())
            labels = list(categories)
            offset = ''
            if self._formatter is not None:
                labels = self._formatter.format_ticks(ticks)
        else:
            locator = self._locator or self._default_locator()
            if self._ticks is not None:
                ticks = list(self._ticks)
            else:
                ticks = locator.tick_values(min(low, high), max(low, high))
                if len(ticks) > 1000:
                    raise RuntimeError('the %s axis would have %d ticks; set fewer' % (self.axis_name, len(ticks)))
            lo, hi = min(low, high), max(low, high)
            slack = (hi - lo) * 1e-9
            shown = [t for t in ticks if lo - slack <= t <= hi + slack]
            # The date formatter reads its format from the locator that placed the ticks.
            formatter = self._formatter or self._default_formatter(locator)
            if self._ticklabels is not None:
                labels = [str(l) for l in self._ticklabels] + [''] * max(0, len(ticks) - len(self._ticklabels))
                offset = ''
            else:
                formatted = formatter.format_ticks(shown)
                by_value = dict(zip(shown, formatted))
                labels = [by_value.get(t, '') for t in ticks]
                offset = formatter.get_offset()
        if not self._ticklabels_visible:
            labels, offset = [''] * len(ticks), ''
        from matplotlib.text import plain
        return [{'at': float(t), 'label': plain(l)} for t, l in zip(ticks, labels)], offset

    def _spec(self):
        low, high = self._limits()
        ticks, offset = self._tick_spec(low, high) if self._visible else ([], '')
        return {'low': low, 'high': high, 'log': self._scale == 'log', 'ticks': ticks,
                'label': self.label._as_label() if self._visible else None, 'rotation': self._rotation,
                'align': self._align, 'side': self._side, 'offset': offset or None}

    # matplotlib's Axis API
    def set_major_locator(self, locator):
        self._locator, self._ticks = locator, None

    def set_major_formatter(self, formatter):
        if isinstance(formatter, str):
            formatter = ticker.StrMethodFormatter(formatter) if '{' in formatter else ticker.FormatStrFormatter(formatter)
        elif callable(formatter) and not isinstance(formatter, ticker.Formatter):
            formatter = ticker.FuncFormatter(formatter)
        self._formatter, self._ticklabels = formatter, None

    def get_major_formatter(self):
        return self._formatter or self._default_formatter(self._locator)

    def get_major_locator(self):
        return self._locator or self._default_locator()

    def set_minor_locator(self, locator):
        pass  # minor ticks are not drawn by this sandbox's matplotlib; the major ticks and labels are unchanged

    def set_minor_formatter(self, formatter):
        pass

    def set_ticks(self, ticks, labels=None, *, minor=False, **kwargs):
        if minor:
            return []
        ticks = _data.sequence(ticks, 'ticks')
        self._register(ticks)
        self._ticks = self._numbers(ticks)
        self._ticklabels = None if labels is None else [str(l) for l in labels]
        self._apply_label_style(kwargs)
        return self.get_ticklabels()

    def get_ticklocs(self, minor=False):
        low, high = self._limits()
        return [t['at'] for t in self._tick_spec(low, high)[0]]

    def set_ticklabels(self, labels, *, minor=False, **kwargs):
        if minor:
            return []
        labels = [l.get_text() if isinstance(l, Text) else str(l) for l in labels]
        if self._ticks is None:
            self._ticks = self.get_ticklocs()
        self._ticklabels = labels
        self._apply_label_style(kwargs)
        return self.get_ticklabels()

    def _apply_label_style(self, kwargs):
        rotation = kwargs.pop('rotation', None)
        if rotation is not None:
            self._rotation = _rotation(rotation)
            if self._rotation and self.axis_name == 'x' and self._align == 'center':
                self._align = 'center'
        for key in ('ha', 'horizontalalignment'):
            if key in kwargs:
                self._align = kwargs.pop(key)
        for key in ('fontsize', 'size', 'fontweight', 'weight', 'color', 'va', 'verticalalignment', 'rotation_mode'):
            kwargs.pop(key, None)

    def get_ticklabels(self, minor=False, which=None):
        if minor:
            return []
        low, high = self._limits()
        return [_TickLabel(self, t['at'], t['label']) for t in self._tick_spec(low, high)[0]]

    get_majorticklabels = get_ticklabels

    def set_label_text(self, label, fontdict=None, **kwargs):
        self.label = Text(0, 0, label, **dict(fontdict or {}, **kwargs))
        return self.label

    def set_label_position(self, position):
        self._side = position

    def set_ticks_position(self, position):
        if position in ('top', 'bottom', 'left', 'right'):
            self._side = position

    def tick_top(self):
        self._side = 'top'

    def tick_bottom(self):
        self._side = 'bottom'

    def tick_right(self):
        self._side = 'right'

    def tick_left(self):
        self._side = 'left'

    def set_visible(self, b):
        self._visible = bool(b)

    def get_visible(self):
        return self._visible

    def set_tick_params(self, **kwargs):
        self.axes.tick_params(axis=self.axis_name, **kwargs)

    def grid(self, visible=None, which='major', **kwargs):
        self.axes.grid(visible, which=which, axis=self.axis_name, **kwargs)

    def axis_date(self, tz=None):
        self.units = 'date'

    def set_inverted(self, inverted):
        self._inverted = bool(inverted)

    def get_inverted(self):
        return self._inverted

    def set_units(self, u):
        pass

    def get_label(self):
        return self.label

    def get_scale(self):
        return self._scale

    def set_label_coords(self, x, y, transform=None):
        pass  # the label keeps its place beside the tick labels


class _TickLabel(Text):
    """A tick's label as get_xticklabels() gives it: its rotation and alignment change the whole axis's, as the
    usual `for label in ax.get_xticklabels(): label.set_rotation(45)` means."""

    def __init__(self, axis, at, text):
        super().__init__(at, 0, text)
        self._axis = axis

    def set_rotation(self, r):
        self._axis._rotation = _rotation(r)

    def set_ha(self, ha):
        self._axis._align = ha

    set_horizontalalignment = set_ha

    def set_fontsize(self, size):
        pass  # tick labels are drawn at matplotlib's default size here

    set_size = set_fontsize

    def set_visible(self, b):
        if not b:
            self._axis._ticklabels_visible = False

    def set_text(self, s):
        self._text = str(s)


def _rotation(rotation):
    if rotation in (None, 'horizontal'):
        return 0.0
    if rotation == 'vertical':
        return 90.0
    return float(rotation)
