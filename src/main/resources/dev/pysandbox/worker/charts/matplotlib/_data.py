"""Data as agents pass it: lists, tuples, ranges, generators, dict views, array-likes with tolist(), numbers, dates
and strings (categories). Values become floats here, each axis remembering its units (axis.py)."""
import datetime as _datetime

_NAN = float('nan')


def sequence(data, name='data'):
    """`data` as a list: a scalar becomes a list of one."""
    if data is None:
        raise TypeError('%s is None; pass a list of values' % name)
    if isinstance(data, (str, bytes)):
        return [data]
    if isinstance(data, list):
        return data
    tolist = getattr(data, 'tolist', None)
    if callable(tolist):
        result = tolist()
        return result if isinstance(result, list) else [result]
    try:
        return list(data)
    except TypeError:
        return [data]


def is_nested(data):
    return bool(data) and all(isinstance(row, (list, tuple)) or hasattr(row, 'tolist') and not isinstance(row, str)
                              for row in data)


def number(value):
    """A plain number as float (None is NaN); TypeError for anything else."""
    if value is None:
        return _NAN
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(value)  # Decimal, Fraction, numpy-like scalars
    except (TypeError, ValueError):
        raise TypeError('cannot plot a value of type %s: %r' % (type(value).__name__, value)) from None


def is_date(value):
    return isinstance(value, (_datetime.date, _datetime.datetime))


def kind_of(values):
    """'date', 'category' or 'number': what the first value that is not None says the data are."""
    for value in values:
        if value is None:
            continue
        if is_date(value):
            return 'date'
        if isinstance(value, str):
            return 'category'
        return 'number'
    return 'number'
