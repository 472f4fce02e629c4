"""Line styles and markers as matplotlib names them, and the format strings of plot ('ro-', 'b--', 'g^')."""

MARKERS = frozenset('o . , s ^ v < > D d p h H * x + | _ P X 8 1 2 3 4'.split())
LINESTYLES = {'-': None, 'solid': None, '--': (3.7, 1.6), 'dashed': (3.7, 1.6), ':': (1.0, 1.65),
              'dotted': (1.0, 1.65), '-.': (6.4, 1.6, 1.0, 1.6), 'dashdot': (6.4, 1.6, 1.0, 1.6)}
NO_LINE = ('', ' ', 'None', 'none')
FORMAT_COLORS = frozenset('bgrcmykw')


def dash(linestyle, linewidth):
    """The dash pattern in points for a style ('--', ':', (offset, (on, off...)), or None for a solid line.
    matplotlib scales the named patterns by the line's width."""
    if linestyle is None or linestyle in NO_LINE:
        return None
    if isinstance(linestyle, tuple) and len(linestyle) == 2 and isinstance(linestyle[1], (tuple, list)):
        pattern = linestyle[1]
        return [float(v) for v in pattern] if pattern else None
    if linestyle not in LINESTYLES:
        raise ValueError('%r is not a valid value for linestyle; supported values are %s' % (
            linestyle, ', '.join(repr(s) for s in LINESTYLES)))
    pattern = LINESTYLES[linestyle]
    scale = max(1.0, float(linewidth)) if linewidth else 1.0
    return None if pattern is None else [v * scale for v in pattern]


def check_marker(marker):
    if marker in (None, '', ' ', 'None', 'none'):
        return None
    if marker not in MARKERS:
        raise ValueError('%r is not a valid value for marker; supported values are %s' % (
            marker, ', '.join(repr(m) for m in sorted(MARKERS))))
    return marker


def parse_format(fmt):
    """(color, marker, linestyle) of a plot format string; ValueError naming what it cannot read."""
    color = marker = linestyle = None
    i = 0
    while i < len(fmt):
        two = fmt[i:i + 2]
        if two in ('--', '-.'):
            linestyle, i = two, i + 2
        elif fmt[i] in '-:':
            linestyle, i = fmt[i], i + 1
        elif fmt[i] == 'C' and i + 1 < len(fmt) and fmt[i + 1].isdigit():
            color, i = fmt[i:i + 2], i + 2
        elif fmt[i] in FORMAT_COLORS and color is None:
            color, i = fmt[i], i + 1
        elif fmt[i] in MARKERS and marker is None:
            marker, i = fmt[i], i + 1
        else:
            raise ValueError('%r is not a valid format string (unrecognized character %r)' % (fmt, fmt[i]))
    if linestyle is None and marker is None:
        linestyle = '-'
    return color, marker, linestyle if linestyle is not None else 'None'
