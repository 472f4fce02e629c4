"""Text on an axes or a figure: titles, labels, ax.text() and annotate()."""
from matplotlib import colors as _colors
from matplotlib.artist import Artist

_SIZES = {'xx-small': 5.79, 'x-small': 6.94, 'small': 8.33, 'medium': 10.0, 'large': 12.0, 'x-large': 14.4,
          'xx-large': 17.28, 'larger': 12.0, 'smaller': 8.33}
_ALIGN = {'left': 'left', 'center': 'center', 'centre': 'center', 'right': 'right'}
_VALIGN = {'top': 'top', 'center': 'center', 'centre': 'center', 'bottom': 'bottom', 'baseline': 'baseline',
           'center_baseline': 'center'}


def font_size(size, default=10.0):
    if size is None:
        return default
    if isinstance(size, str):
        if size in _SIZES:
            return _SIZES[size]
        try:
            return float(size)
        except ValueError:
            raise ValueError('%r is not a valid font size; use a number of points or one of %s' % (
                size, ', '.join(_SIZES))) from None
    return float(size)


def is_bold(weight):
    if weight is None:
        return False
    if isinstance(weight, (int, float)):
        return weight >= 600
    return str(weight) in ('bold', 'heavy', 'extra bold', 'black', 'semibold', 'demibold', 'demi')


def plain(text):
    """Text as drawn: matplotlib's $...$ math without its dollars and with its common symbols in Unicode."""
    text = str(text)
    if text.count('$') < 2:
        return text
    out, math_mode, i = [], False, 0
    while i < len(text):
        c = text[i]
        if c == '\\' and i + 1 < len(text) and text[i + 1] == '$':
            out.append('$')
            i += 2
            continue
        if c == '$':
            math_mode = not math_mode
            i += 1
            continue
        if math_mode and c == '\\':
            j = i + 1
            while j < len(text) and text[j].isalpha():
                j += 1
            name = text[i + 1:j]
            out.append(_SYMBOLS.get(name, name))
            i = j
            continue
        if math_mode and c in '^_' and i + 1 < len(text):
            group = text[i + 1]
            end = i + 2
            if group == '{':
                end = text.find('}', i + 2)
                end = len(text) if end < 0 else end + 1
                group = text[i + 2:end - 1]
            table = _SUPER if c == '^' else _SUB
            out.append(group.translate(table) if all(ch in _TRANSLATABLE for ch in group) else c + group)
            i = end
            continue
        if math_mode and c in '{}':
            i += 1
            continue
        out.append(c)
        i += 1
    return ''.join(out)


_SYMBOLS = {'alpha': '\u03b1', 'beta': '\u03b2', 'gamma': '\u03b3', 'delta': '\u03b4', 'epsilon': '\u03b5',
            'theta': '\u03b8', 'lambda': '\u03bb', 'mu': '\u03bc', 'pi': '\u03c0', 'rho': '\u03c1',
            'sigma': '\u03c3', 'tau': '\u03c4', 'phi': '\u03c6', 'omega': '\u03c9', 'Delta': '\u0394',
            'Sigma': '\u03a3', 'Omega': '\u03a9', 'pm': '\u00b1', 'times': '\u00d7', 'cdot': '\u00b7',
            'degree': '\u00b0', 'circ': '\u00b0', 'leq': '\u2264', 'geq': '\u2265', 'neq': '\u2260',
            'approx': '\u2248', 'infty': '\u221e', 'sqrt': '\u221a', 'rightarrow': '\u2192', 'leftarrow': '\u2190',
            'mathrm': '', 'mathbf': '', 'text': '', 'it': '', 'rm': '', 'bf': '', ',': ' ', 'quad': ' ', '%': '%'}
_TRANSLATABLE = set('0123456789+-=()n')
_SUPER = str.maketrans('0123456789+-=()n', '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e\u207f')
_SUB = str.maketrans('0123456789+-=()n', '\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e\u2099')


class Text(Artist):
    zorder = 3

    def __init__(self, x=0, y=0, text='', color=None, fontsize=None, fontweight=None, ha=None, va=None,
                 rotation=None, bbox=None, coords=('data', 'data'), label=None, alpha=None, **kwargs):
        super().__init__(label=label, alpha=alpha)
        self._x, self._y, self._text = x, y, '' if text is None else str(text)
        self._color = 'black' if color is None else color
        self._size = font_size(kwargs.pop('size', None) if fontsize is None else fontsize)
        self._bold = is_bold(kwargs.pop('weight', None) if fontweight is None else fontweight)
        self._ha = _ALIGN.get(kwargs.pop('horizontalalignment', None) or ha or 'left', 'left')
        self._va = _VALIGN.get(kwargs.pop('verticalalignment', None) or va or 'baseline', 'baseline')
        self._rotation = _angle(rotation)
        self._box = None
        if bbox is not None:
            self.set_bbox(bbox)
        self._coords = coords
        for key in ('family', 'fontfamily', 'fontname', 'style', 'fontstyle', 'wrap', 'zorder', 'clip_on',
                    'transform', 'usetex', 'linespacing', 'multialignment', 'rotation_mode', 'fontproperties'):
            kwargs.pop(key, None)
        for key, value in kwargs.items():
            setter = getattr(self, 'set_' + key, None)
            if setter is None:
                raise AttributeError('Text got an unexpected keyword argument %r' % key)
            setter(value)

    def get_text(self):
        return self._text

    def set_text(self, s):
        self._text = '' if s is None else str(s)

    def get_position(self):
        return (self._x, self._y)

    def set_position(self, xy):
        self._x, self._y = xy

    def set_x(self, x):
        self._x = x

    def set_y(self, y):
        self._y = y

    def set_color(self, c):
        _colors.to_rgba(c)
        self._color = c

    def get_color(self):
        return self._color

    def set_fontsize(self, size):
        self._size = font_size(size)

    def get_fontsize(self):
        return self._size

    def set_fontweight(self, weight):
        self._bold = is_bold(weight)

    def set_rotation(self, r):
        self._rotation = _angle(r)

    def get_rotation(self):
        return self._rotation

    def set_ha(self, ha):
        self._ha = _ALIGN.get(ha, 'left')

    def set_va(self, va):
        self._va = _VALIGN.get(va, 'baseline')

    def set_bbox(self, props):
        props = dict(props or {})
        face = props.get('facecolor', props.get('fc', props.get('color', 'white')))
        self._box = _colors._wire(face, props.get('alpha'))

    def set_fontfamily(self, family):
        pass  # one face ships with the sandbox: DejaVu Sans, matplotlib's default

    set_size, set_weight, set_horizontalalignment, set_verticalalignment = set_fontsize, set_fontweight, set_ha, set_va
    set_family = set_fontfamily

    def _as_label(self):
        """This text as a label of the renderer (titles, axis labels)."""
        if not self._text or not self._visible:
            return None
        return {'text': plain(self._text), 'size': self._size, 'color': _colors._wire(self._color, self._alpha),
                'bold': self._bold}

    def _wire(self, axes):
        if not self._text and getattr(self, '_arrow', None) is None:
            return []
        x_in, y_in = self._coords
        x = axes.xaxis._number(self._x) if x_in == 'data' else float(self._x)
        y = axes.yaxis._number(self._y) if y_in == 'data' else float(self._y)
        return [{'kind': 'text', 'x': x, 'y': y, 'x_in': x_in, 'y_in': y_in, 'text': plain(self._text),
                 'size': self._size, 'color': _colors._wire(self._color, self._alpha), 'bold': self._bold,
                 'align': self._ha, 'valign': self._va, 'rotation': self._rotation, 'box': self._box,
                 'dx': getattr(self, '_offset', (0, 0))[0], 'dy': getattr(self, '_offset', (0, 0))[1]}]


def _angle(rotation):
    if rotation in (None, 'horizontal'):
        return 0.0
    if rotation == 'vertical':
        return 90.0
    return float(rotation)


class Annotation(Text):
    def __init__(self, text, xy, xytext=None, arrowprops=None, coords=('data', 'data'), **kwargs):
        target = xy if xytext is None else xytext
        super().__init__(target[0], target[1], text, coords=coords, **kwargs)
        self.xy = xy
        self._arrow = None
        if arrowprops is not None:
            props = dict(arrowprops)
            self._arrow = {'color': props.get('color', props.get('facecolor', props.get('fc', 'black'))),
                           'width': float(props.get('lw', props.get('linewidth', props.get('width', 1.0))))}
            if self._arrow['width'] > 4:
                self._arrow['width'] = 1.5

    def _wire(self, axes):
        drawn = super()._wire(axes)
        if drawn and self._arrow is not None and self._coords == ('data', 'data'):
            drawn[0]['arrow'] = {'x': axes.xaxis._number(self.xy[0]), 'y': axes.yaxis._number(self.xy[1]),
                                 'color': _colors._wire(self._arrow['color']), 'width': self._arrow['width']}
        return drawn
