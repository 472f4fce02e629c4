"""Dates on an axis, as matplotlib puts them there: a date is a float, the days since 1970-01-01 (UTC), and the
ticks fall on whole years, months, days, hours or minutes, whichever gives a handful."""
import datetime as _datetime
import math

from matplotlib import ticker

_EPOCH = _datetime.datetime(1970, 1, 1)
_UTC = _datetime.timezone.utc


def date2num(d):
    """Days since 1970-01-01 as a float, for a date, a datetime, or a list of them."""
    if isinstance(d, (list, tuple)):
        return [date2num(v) for v in d]
    if isinstance(d, _datetime.datetime):
        if d.tzinfo is not None:
            d = d.astimezone(_UTC).replace(tzinfo=None)
        delta = d - _EPOCH
        return delta.days + (delta.seconds + delta.microseconds / 1e6) / 86400
    if isinstance(d, _datetime.date):
        return float((d - _EPOCH.date()).days)
    raise TypeError('date2num takes dates or datetimes, not %s' % type(d).__name__)


def num2date(x, tz=None):
    if isinstance(x, (list, tuple)):
        return [num2date(v, tz) for v in x]
    value = _EPOCH + _datetime.timedelta(days=float(x))
    value = value.replace(tzinfo=_UTC)
    return value.astimezone(tz) if tz is not None else value


def datestr2num(text):
    return date2num(_datetime.datetime.fromisoformat(text))


class DateFormatter(ticker.Formatter):
    def __init__(self, fmt, tz=None, usetex=None):
        self.fmt = fmt

    def __call__(self, x, pos=None):
        return num2date(x).strftime(self.fmt)


class _Interval:
    """Ticks every `step` units of one calendar field."""

    def __init__(self, unit, step, fmt):
        self.unit, self.step, self.fmt = unit, step, fmt

    def ticks(self, vmin, vmax):
        start, end = num2date(vmin).replace(tzinfo=None), num2date(vmax).replace(tzinfo=None)
        ticks = []
        if self.unit == 'year':
            year = (start.year // self.step) * self.step
            while year <= end.year + self.step:
                if 1 <= year <= 9999:
                    ticks.append(_datetime.datetime(year, 1, 1))
                year += self.step
        elif self.unit == 'month':
            month = start.year * 12 + start.month - 1
            month -= month % self.step
            while month <= end.year * 12 + end.month - 1 + self.step:
                ticks.append(_datetime.datetime(month // 12, month % 12 + 1, 1))
                month += self.step
        else:
            seconds = {'day': 86400, 'hour': 3600, 'minute': 60, 'second': 1}[self.unit] * self.step
            first = math.floor((start - _EPOCH).total_seconds() / seconds) * seconds
            if self.unit == 'day' and self.step > 1:
                # Days of the month (1, 8, 15, 22 ...), as matplotlib's DayLocator counts them.
                day = _datetime.datetime(start.year, start.month, 1)
                while day <= end + _datetime.timedelta(days=self.step):
                    # A tick closer to the next month's first than a step would crowd its label.
                    if (day.day - 1) % self.step == 0 and day.day - 1 + self.step <= 28:
                        ticks.append(day)
                    day += _datetime.timedelta(days=1)
                return [date2num(t) for t in ticks]
            value = first
            stop = (end - _EPOCH).total_seconds() + seconds
            while value <= stop and len(ticks) < 1000:
                ticks.append(_EPOCH + _datetime.timedelta(seconds=value))
                value += seconds
        return [date2num(t) for t in ticks]


_INTERVALS = ([_Interval('year', s, '%Y') for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)]
              + [_Interval('month', s, '%Y-%m') for s in (1, 2, 3, 4, 6)]
              + [_Interval('day', s, '%Y-%m-%d') for s in (1, 2, 3, 7, 14)]
              + [_Interval('hour', s, '%H:%M') for s in (1, 2, 3, 4, 6, 12)]
              + [_Interval('minute', s, '%H:%M') for s in (1, 5, 10, 15, 30)]
              + [_Interval('second', s, '%H:%M:%S') for s in (1, 5, 10, 15, 30)])


def _interval(vmin, vmax, most=8):
    """The coarsest... the finest interval that gives at most `most` ticks between vmin and vmax, and at least 2."""
    low, high = min(vmin, vmax), max(vmin, vmax)
    span_days = high - low
    rough = {'year': 365.25, 'month': 30.44, 'day': 1, 'hour': 1 / 24, 'minute': 1 / 1440, 'second': 1 / 86400}
    candidates = sorted(_INTERVALS, key=lambda i: rough[i.unit] * i.step)
    for interval in candidates:
        if span_days / (rough[interval.unit] * interval.step) <= most:
            return interval
    return candidates[-1]


class AutoDateLocator(ticker.Locator):
    def __init__(self, tz=None, minticks=5, maxticks=None, interval_multiples=True):
        self._maxticks = maxticks if isinstance(maxticks, int) else 8

    def tick_values(self, vmin, vmax):
        interval = _interval(vmin, vmax, self._maxticks)
        self._fmt = interval.fmt
        return interval.ticks(min(vmin, vmax), max(vmin, vmax))


class AutoDateFormatter(ticker.Formatter):
    def __init__(self, locator=None, tz=None, defaultfmt='%Y-%m-%d'):
        self._locator, self.defaultfmt = locator, defaultfmt

    def __call__(self, x, pos=None):
        fmt = getattr(self._locator, '_fmt', None) or self._fmt_for(self.locs)
        return num2date(x).strftime(fmt)

    def _fmt_for(self, locs):
        if len(locs) < 2:
            return self.defaultfmt
        return _interval(min(locs), max(locs), max(2, len(locs))).fmt


ConciseDateFormatter = AutoDateFormatter


class _FieldLocator(ticker.Locator):
    unit = 'day'

    def __init__(self, *args, interval=1, **kwargs):
        self._step = interval

    def tick_values(self, vmin, vmax):
        return _Interval(self.unit, self._step, '').ticks(min(vmin, vmax), max(vmin, vmax))


class YearLocator(_FieldLocator):
    unit = 'year'

    def __init__(self, base=1, month=1, day=1, tz=None):
        self._step = base


class MonthLocator(_FieldLocator):
    unit = 'month'

    def __init__(self, bymonth=None, bymonthday=1, interval=1, tz=None):
        self._step = interval


class DayLocator(_FieldLocator):
    unit = 'day'

    def __init__(self, bymonthday=None, interval=1, tz=None):
        self._step = interval


class HourLocator(_FieldLocator):
    unit = 'hour'

    def __init__(self, byhour=None, interval=1, tz=None):
        self._step = interval


class MinuteLocator(_FieldLocator):
    unit = 'minute'

    def __init__(self, byminute=None, interval=1, tz=None):
        self._step = interval


class WeekdayLocator(_FieldLocator):
    unit = 'day'

    def __init__(self, byweekday=0, interval=1, tz=None):
        self._weekday, self._step = byweekday if isinstance(byweekday, int) else 0, interval

    def tick_values(self, vmin, vmax):
        days = _Interval('day', 1, '').ticks(min(vmin, vmax), max(vmin, vmax))
        weeks = [d for d in days if num2date(d).weekday() == self._weekday]
        return weeks[::max(1, self._step)]


MO, TU, WE, TH, FR, SA, SU = range(7)
