"""Where ticks go (locators) and how they are labelled (formatters), with matplotlib's default rules: at most 9
ticks on steps of 1, 2, 2.5, 5 or 10 times a power of ten, labelled with as few decimals as tell them apart."""
import math


class Locator:
    def tick_values(self, vmin, vmax):
        raise NotImplementedError('%s.tick_values' % type(self).__name__)

    def __call__(self, vmin, vmax):
        return self.tick_values(vmin, vmax)

    def set_params(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, '_' + key, value)


class NullLocator(Locator):
    def tick_values(self, vmin, vmax):
        return []


class FixedLocator(Locator):
    def __init__(self, locs, nbins=None):
        self.locs = [float(v) for v in locs]

    def tick_values(self, vmin, vmax):
        return list(self.locs)


class MultipleLocator(Locator):
    def __init__(self, base=1.0, offset=0.0):
        if not base > 0:
            raise ValueError('MultipleLocator needs a positive base, not %r' % (base,))
        self._base, self._offset = float(base), float(offset)

    def tick_values(self, vmin, vmax):
        low, high = min(vmin, vmax), max(vmin, vmax)
        if (high - low) / self._base > 1000:
            raise RuntimeError('MultipleLocator(%r) would place more than 1000 ticks' % self._base)
        start = math.floor((low - self._offset) / self._base + 1e-9) * self._base + self._offset
        ticks, value = [], start
        while value <= high + self._base * 1e-9:
            ticks.append(round(value, 12))
            value += self._base
        return ticks


class MaxNLocator(Locator):
    """At most nbins intervals between ticks, each a 'nice' step: matplotlib's default locator."""
    default_steps = (1, 2, 2.5, 5, 10)

    def __init__(self, nbins=None, steps=None, integer=False, prune=None, min_n_ticks=2, **kwargs):
        self._nbins = 'auto' if nbins is None else nbins
        self._steps = tuple(steps) if steps else self.default_steps
        if self._steps[-1] != 10:
            self._steps = self._steps + (10,)
        self._integer, self._prune, self._min_n_ticks = integer, prune, min_n_ticks
        self._auto_bins = 9

    def tick_values(self, vmin, vmax):
        if vmax < vmin:
            vmin, vmax = vmax, vmin
        nbins = self._auto_bins if self._nbins == 'auto' else max(1, int(self._nbins))
        if vmax == vmin:
            pad = 1 if vmin == 0 else abs(vmin) * 0.05
            vmin, vmax = vmin - pad, vmax + pad
        span = vmax - vmin
        scale = 10 ** math.floor(math.log10(span / nbins))
        offset = 0.0
        # Large values with a small spread: measure steps from a round offset, as matplotlib's scale_range does.
        middle = (vmin + vmax) / 2
        if abs(middle) / span >= 100:
            offset = math.copysign(10 ** (math.log10(abs(middle)) // 1), middle)
        steps = [s * scale for s in (0.1, 0.2, 0.25, 0.5) + self._steps]
        if self._integer:
            steps = [s for s in steps if s >= 1 and float(s).is_integer()] or [1]
        raw = span / nbins
        low, high = vmin - offset, vmax - offset
        chosen = []
        for step in [s for s in steps if s >= raw * (1 - 1e-10)] or steps[-1:]:
            best_low = (low // step) * step
            first = math.floor((low - best_low) / step + 1e-10)
            last = math.ceil((high - best_low) / step - 1e-10)
            ticks = [(i * step + best_low) for i in range(first, last + 1)]
            inside = [t for t in ticks if low - 1e-10 * span <= t <= high + 1e-10 * span]
            chosen = ticks
            if len(inside) >= self._min_n_ticks:
                break
        ticks = [round(t + offset, 12) for t in chosen]
        if self._prune in ('lower', 'both') and ticks:
            ticks = ticks[1:]
        if self._prune in ('upper', 'both') and ticks:
            ticks = ticks[:-1]
        return ticks


class AutoLocator(MaxNLocator):
    def __init__(self):
        super().__init__(nbins='auto', steps=(1, 2, 2.5, 5, 10))


class LogLocator(Locator):
    """Ticks at the powers of the base (every few of them when the range is wide)."""

    def __init__(self, base=10.0, subs=(1.0,), numticks=None):
        self._base = float(base)

    def tick_values(self, vmin, vmax):
        low, high = min(vmin, vmax), max(vmin, vmax)
        if high <= 0:
            return []
        low = max(low, high * 1e-300)
        first, last = math.floor(math.log(low, self._base)), math.ceil(math.log(high, self._base))
        stride = max(1, int(math.ceil((last - first) / 9)))
        return [self._base ** e for e in range(first, last + 1, stride)]


class Formatter:
    locs = ()

    def __call__(self, x, pos=None):
        raise NotImplementedError('%s' % type(self).__name__)

    def format_ticks(self, values):
        self.set_locs(values)
        return [self(v, i) for i, v in enumerate(values)]

    def set_locs(self, locs):
        self.locs = list(locs)

    def get_offset(self):
        return ''

    def format_data(self, value):
        return self(value)


class NullFormatter(Formatter):
    def __call__(self, x, pos=None):
        return ''


class FixedFormatter(Formatter):
    def __init__(self, seq):
        self.seq = list(seq)

    def __call__(self, x, pos=None):
        return str(self.seq[pos]) if pos is not None and pos < len(self.seq) else ''


class FuncFormatter(Formatter):
    def __init__(self, func):
        self.func = func

    def __call__(self, x, pos=None):
        return str(self.func(x, pos))


class FormatStrFormatter(Formatter):
    def __init__(self, fmt):
        self.fmt = fmt

    def __call__(self, x, pos=None):
        return self.fmt % x


class StrMethodFormatter(Formatter):
    def __init__(self, fmt):
        self.fmt = fmt

    def __call__(self, x, pos=None):
        return self.fmt.format(x=x, pos=pos)


class PercentFormatter(Formatter):
    def __init__(self, xmax=100, decimals=None, symbol='%', is_latex=False):
        self.xmax, self.decimals, self.symbol = xmax, decimals, symbol

    def __call__(self, x, pos=None):
        value = x / self.xmax * 100
        if self.decimals is None:
            span = (max(self.locs) - min(self.locs)) / self.xmax * 100 if len(self.locs) > 1 else 0
            decimals = 0 if span == 0 or span > 50 else max(0, int(math.ceil(2 - math.log10(span))))
        else:
            decimals = self.decimals
        return '%.*f%s' % (decimals, value, self.symbol or '')


class EngFormatter(Formatter):
    PREFIXES = {-24: 'y', -21: 'z', -18: 'a', -15: 'f', -12: 'p', -9: 'n', -6: '\u00b5', -3: 'm', 0: '', 3: 'k',
                6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E', 21: 'Z', 24: 'Y'}

    def __init__(self, unit='', places=None, sep=' '):
        self.unit, self.places, self.sep = unit, places, sep

    def __call__(self, x, pos=None):
        if x == 0:
            return '0' + (self.sep + self.unit if self.unit else '')
        exponent = max(-24, min(24, int(math.floor(math.log10(abs(x)) / 3) * 3)))
        mantissa = x / 10 ** exponent
        text = ('%g' % mantissa) if self.places is None else '%.*f' % (self.places, mantissa)
        suffix = self.PREFIXES[exponent] + self.unit
        return text + (self.sep + suffix if suffix else '')


class ScalarFormatter(Formatter):
    """matplotlib's default: as few decimals as tell the ticks apart; a common power of ten shown at the axis end
    (the offset text, '1e6') when the numbers are very large or very small."""

    def __init__(self, useOffset=None, useMathText=None, useLocale=None):
        self._scientific = True
        self._power = 0
        self._decimals = 0

    def set_scientific(self, b):
        self._scientific = bool(b)

    def set_powerlimits(self, lims):
        self._limits = lims

    def set_useOffset(self, val):
        pass

    def set_locs(self, locs):
        self.locs = list(locs)
        finite = [abs(v) for v in self.locs if v == v and abs(v) != float('inf')]
        biggest = max(finite) if finite else 0
        low, high = getattr(self, '_limits', (-5, 6))
        self._power = 0
        if self._scientific and biggest:
            magnitude = math.floor(math.log10(biggest))
            if magnitude <= low or magnitude >= high:
                self._power = magnitude
        scaled = [v / 10 ** self._power for v in self.locs if v == v and abs(v) != float('inf')]
        # As many decimals as it takes to write every tick exactly (0.125 is not 0.12), the same for all.
        self._decimals = 0
        while self._decimals < 12 and any(abs(round(v, self._decimals) - v) > 1e-9 * max(1.0, abs(v))
                                          for v in scaled):
            self._decimals += 1

    def __call__(self, x, pos=None):
        text = '%.*f' % (self._decimals, x / 10 ** self._power)
        if text.startswith('-') and float(text) == 0:
            text = text[1:]
        return text.replace('-', '\u2212')

    def get_offset(self):
        return '1e%d' % self._power if self._power else ''


class LogFormatter(Formatter):
    def __call__(self, x, pos=None):
        if x <= 0:
            return ''
        exponent = math.log10(x)
        if abs(exponent - round(exponent)) < 1e-9:
            return '10' + str(int(round(exponent))).translate(_SUPERSCRIPTS)
        return ''


_SUPERSCRIPTS = str.maketrans('-0123456789', '\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079')


LogFormatterSciNotation = LogFormatterMathtext = LogFormatter
