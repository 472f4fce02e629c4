"""Colours as matplotlib names them: names, hex, grey levels as strings, 'C0'-'C9', RGB(A) tuples; colour maps
and normalisation. The sandbox's matplotlib resolves every colour here, so the renderer sees only #rrggbbaa."""

BASE_COLORS = {'b': '#0000ff', 'g': '#008000', 'r': '#ff0000', 'c': '#00bfbf', 'm': '#bf00bf', 'y': '#bfbf00',
               'k': '#000000', 'w': '#ffffff'}

TABLEAU_COLORS = {
    'tab:blue': '#1f77b4', 'tab:orange': '#ff7f0e', 'tab:green': '#2ca02c', 'tab:red': '#d62728',
    'tab:purple': '#9467bd', 'tab:brown': '#8c564b', 'tab:pink': '#e377c2', 'tab:gray': '#7f7f7f',
    'tab:olive': '#bcbd22', 'tab:cyan': '#17becf'}
TABLEAU_COLORS['tab:grey'] = TABLEAU_COLORS['tab:gray']

CSS4_COLORS = {
    'aliceblue': '#F0F8FF', 'antiquewhite': '#FAEBD7', 'aqua': '#00FFFF', 'aquamarine': '#7FFFD4',
    'azure': '#F0FFFF', 'beige': '#F5F5DC', 'bisque': '#FFE4C4', 'black': '#000000', 'blanchedalmond': '#FFEBCD',
    'blue': '#0000FF', 'blueviolet': '#8A2BE2', 'brown': '#A52A2A', 'burlywood': '#DEB887', 'cadetblue': '#5F9EA0',
    'chartreuse': '#7FFF00', 'chocolate': '#D2691E', 'coral': '#FF7F50', 'cornflowerblue': '#6495ED',
    'cornsilk': '#FFF8DC', 'crimson': '#DC143C', 'cyan': '#00FFFF', 'darkblue': '#00008B', 'darkcyan': '#008B8B',
    'darkgoldenrod': '#B8860B', 'darkgray': '#A9A9A9', 'darkgreen': '#006400', 'darkgrey': '#A9A9A9',
    'darkkhaki': '#BDB76B', 'darkmagenta': '#8B008B', 'darkolivegreen': '#556B2F', 'darkorange': '#FF8C00',
    'darkorchid': '#9932CC', 'darkred': '#8B0000', 'darksalmon': '#E9967A', 'darkseagreen': '#8FBC8F',
    'darkslateblue': '#483D8B', 'darkslategray': '#2F4F4F', 'darkslategrey': '#2F4F4F', 'darkturquoise': '#00CED1',
    'darkviolet': '#9400D3', 'deeppink': '#FF1493', 'deepskyblue': '#00BFFF', 'dimgray': '#696969',
    'dimgrey': '#696969', 'dodgerblue': '#1E90FF', 'firebrick': '#B22222', 'floralwhite': '#FFFAF0',
    'forestgreen': '#228B22', 'fuchsia': '#FF00FF', 'gainsboro': '#DCDCDC', 'ghostwhite': '#F8F8FF',
    'gold': '#FFD700', 'goldenrod': '#DAA520', 'gray': '#808080', 'green': '#008000', 'greenyellow': '#ADFF2F',
    'grey': '#808080', 'honeydew': '#F0FFF0', 'hotpink': '#FF69B4', 'indianred': '#CD5C5C', 'indigo': '#4B0082',
    'ivory': '#FFFFF0', 'khaki': '#F0E68C', 'lavender': '#E6E6FA', 'lavenderblush': '#FFF0F5',
    'lawngreen': '#7CFC00', 'lemonchiffon': '#FFFACD', 'lightblue': '#ADD8E6', 'lightcoral': '#F08080',
    'lightcyan': '#E0FFFF', 'lightgoldenrodyellow': '#FAFAD2', 'lightgray': '#D3D3D3', 'lightgreen': '#90EE90',
    'lightgrey': '#D3D3D3', 'lightpink': '#FFB6C1', 'lightsalmon': '#FFA07A', 'lightseagreen': '#20B2AA',
    'lightskyblue': '#87CEFA', 'lightslategray': '#778899', 'lightslategrey': '#778899',
    'lightsteelblue': '#B0C4DE', 'lightyellow': '#FFFFE0', 'lime': '#00FF00', 'limegreen': '#32CD32',
    'linen': '#FAF0E6', 'magenta': '#FF00FF', 'maroon': '#800000', 'mediumaquamarine': '#66CDAA',
    'mediumblue': '#0000CD', 'mediumorchid': '#BA55D3', 'mediumpurple': '#9370DB', 'mediumseagreen': '#3CB371',
    'mediumslateblue': '#7B68EE', 'mediumspringgreen': '#00FA9A', 'mediumturquoise': '#48D1CC',
    'mediumvioletred': '#C71585', 'midnightblue': '#191970', 'mintcream': '#F5FFFA', 'mistyrose': '#FFE4E1',
    'moccasin': '#FFE4B5', 'navajowhite': '#FFDEAD', 'navy': '#000080', 'oldlace': '#FDF5E6', 'olive': '#808000',
    'olivedrab': '#6B8E23', 'orange': '#FFA500', 'orangered': '#FF4500', 'orchid': '#DA70D6',
    'palegoldenrod': '#EEE8AA', 'palegreen': '#98FB98', 'paleturquoise': '#AFEEEE', 'palevioletred': '#DB7093',
    'papayawhip': '#FFEFD5', 'peachpuff': '#FFDAB9', 'peru': '#CD853F', 'pink': '#FFC0CB', 'plum': '#DDA0DD',
    'powderblue': '#B0E0E6', 'purple': '#800080', 'rebeccapurple': '#663399', 'red': '#FF0000',
    'rosybrown': '#BC8F8F', 'royalblue': '#4169E1', 'saddlebrown': '#8B4513', 'salmon': '#FA8072',
    'sandybrown': '#F4A460', 'seagreen': '#2E8B57', 'seashell': '#FFF5EE', 'sienna': '#A0522D',
    'silver': '#C0C0C0', 'skyblue': '#87CEEB', 'slateblue': '#6A5ACD', 'slategray': '#708090',
    'slategrey': '#708090', 'snow': '#FFFAFA', 'springgreen': '#00FF7F', 'steelblue': '#4682B4', 'tan': '#D2B48C',
    'teal': '#008080', 'thistle': '#D8BFD8', 'tomato': '#FF6347', 'turquoise': '#40E0D0', 'violet': '#EE82EE',
    'wheat': '#F5DEB3', 'white': '#FFFFFF', 'whitesmoke': '#F5F5F5', 'yellow': '#FFFF00',
    'yellowgreen': '#9ACD32'}

# The default colour cycle, tab10 ('C0'...'C9'); rcParams['axes.prop_cycle'] may replace it.
DEFAULT_CYCLE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22',
                 '#17becf']
_cycle = list(DEFAULT_CYCLE)


def _set_cycle(colors):
    _cycle[:] = [to_hex(c) for c in colors] or DEFAULT_CYCLE


def _hex_rgba(text):
    text = text.lstrip('#')
    if len(text) in (3, 4):
        text = ''.join(c * 2 for c in text)
    if len(text) == 6:
        text += 'ff'
    if len(text) != 8:
        raise ValueError
    return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4, 6))


def to_rgba(c, alpha=None):
    """The colour `c` as an (r, g, b, a) tuple of floats in 0..1, as matplotlib.colors.to_rgba gives it."""
    rgba = None
    if isinstance(c, str):
        name = c.strip()
        lower = name.lower()
        if lower == 'none':
            rgba = (0.0, 0.0, 0.0, 0.0)
        elif len(name) == 2 and name[0] == 'C' and name[1].isdigit():
            rgba = _hex_rgba(_cycle[int(name[1]) % len(_cycle)])
        elif lower in BASE_COLORS and len(name) == 1:
            rgba = _hex_rgba(BASE_COLORS[lower])
        elif lower in TABLEAU_COLORS:
            rgba = _hex_rgba(TABLEAU_COLORS[lower])
        elif lower in CSS4_COLORS:
            rgba = _hex_rgba(CSS4_COLORS[lower])
        elif lower.startswith('xkcd:') or lower.startswith('tab:'):
            rgba = None
        elif name.startswith('#'):
            try:
                rgba = _hex_rgba(name)
            except ValueError:
                rgba = None
        else:
            try:
                level = float(name)  # a grey level, '0.5'
            except ValueError:
                level = None
            if level is not None and 0 <= level <= 1:
                rgba = (level, level, level, 1.0)
    elif isinstance(c, (tuple, list)) and len(c) in (3, 4) and all(isinstance(v, (int, float)) for v in c):
        values = [float(v) for v in c]
        if any(v > 1 for v in values[:3]) and all(float(v).is_integer() for v in values[:3]):
            raise ValueError('RGBA values should be within 0-1 range: %r (divide 0-255 values by 255)' % (c,))
        if not all(0 <= v <= 1 for v in values):
            raise ValueError('RGBA values should be within 0-1 range: %r' % (c,))
        rgba = tuple(values) + ((1.0,) if len(values) == 3 else ())
    if rgba is None:
        raise ValueError('%r is not a valid color value' % (c,))
    if alpha is not None:
        rgba = rgba[:3] + (float(alpha),)
    return rgba


def to_rgb(c):
    return to_rgba(c)[:3]


def to_hex(c, keep_alpha=False):
    rgba = to_rgba(c)
    values = rgba if keep_alpha else rgba[:3]
    return '#' + ''.join('%02x' % int(round(v * 255)) for v in values)


def is_color_like(c):
    try:
        to_rgba(c)
        return True
    except (ValueError, TypeError):
        return False


def same_color(c1, c2):
    return to_rgba(c1) == to_rgba(c2)


def _wire(c, alpha=None):
    """The colour as the renderer reads it, #rrggbbaa; None for no colour ('none', or alpha 0 given as None)."""
    if c is None:
        return None
    r, g, b, a = to_rgba(c)
    if alpha is not None:
        a = a * float(alpha)
    return '#%02x%02x%02x%02x' % (int(round(r * 255)), int(round(g * 255)), int(round(b * 255)),
                                  int(round(max(0.0, min(1.0, a)) * 255)))


class Normalize:
    """Maps values linearly onto 0..1 between vmin and vmax (taken from the data when not given)."""

    def __init__(self, vmin=None, vmax=None, clip=False):
        self.vmin, self.vmax, self.clip = vmin, vmax, clip

    def autoscale_None(self, values):
        finite = [v for v in values if v == v and v not in (float('inf'), float('-inf'))]
        if finite:
            if self.vmin is None:
                self.vmin = min(finite)
            if self.vmax is None:
                self.vmax = max(finite)

    def __call__(self, value):
        vmin, vmax = float(self.vmin), float(self.vmax)
        if vmax == vmin:
            return 0.0
        result = (float(value) - vmin) / (vmax - vmin)
        return max(0.0, min(1.0, result)) if self.clip else result


class LogNorm(Normalize):
    def __call__(self, value):
        import math
        vmin, vmax = math.log10(self.vmin), math.log10(self.vmax)
        value = float(value)
        if value <= 0 or vmax == vmin:
            return float('nan') if value <= 0 else 0.0
        return (math.log10(value) - vmin) / (vmax - vmin)


class Colormap:
    """A colour map: called with a value in 0..1 (or a list of them), gives RGBA; N colours in its table."""

    def __init__(self, name, N=256):
        self.name, self.N = name, N
        self._under = self._over = self._bad = None

    def _table(self):
        raise NotImplementedError

    def __call__(self, value, alpha=None, bytes=False):
        if isinstance(value, (list, tuple)):
            return [self(v, alpha, bytes) for v in value]
        table = self._table()
        if isinstance(value, int) and not isinstance(value, bool):
            index = value
        else:
            value = float(value)
            if value != value:
                return (0.0, 0.0, 0.0, 0.0)
            index = int(value * self.N) if value < 1.0 else self.N - 1
        index = max(0, min(self.N - 1, index))
        rgba = table[index]
        if alpha is not None:
            rgba = rgba[:3] + (float(alpha),)
        if bytes:
            return tuple(int(round(v * 255)) for v in rgba)
        return rgba

    def reversed(self, name=None):
        colors = list(reversed(self._table()))
        return ListedColormap(colors, name or self.name + '_r')

    def resampled(self, lutsize):
        return ListedColormap([self(i / max(1, lutsize - 1)) for i in range(lutsize)], self.name)

    def set_bad(self, color='k', alpha=None):
        self._bad = to_rgba(color, alpha)

    def set_under(self, color='k', alpha=None):
        self._under = to_rgba(color, alpha)

    def set_over(self, color='k', alpha=None):
        self._over = to_rgba(color, alpha)

    def __repr__(self):
        return '<matplotlib.colors.%s %r>' % (type(self).__name__, self.name)


class ListedColormap(Colormap):
    def __init__(self, colors, name='from_list', N=None):
        self.colors = [to_rgba(c) for c in colors]
        super().__init__(name, len(self.colors) if N is None else N)

    def _table(self):
        if len(self.colors) == self.N:
            return self.colors
        return [self.colors[i % len(self.colors)] for i in range(self.N)]


class LinearSegmentedColormap(Colormap):
    """A map that runs smoothly through colours placed along 0..1 (from_list)."""

    def __init__(self, name, stops, N=256):
        super().__init__(name, N)
        self._stops = stops
        self._lut = None

    @staticmethod
    def from_list(name, colors, N=256, gamma=1.0):
        colors = list(colors)
        if colors and isinstance(colors[0], (tuple, list)) and len(colors[0]) == 2 and not isinstance(colors[0][1], (int, float)):
            stops = [(float(at), to_rgba(c)) for at, c in colors]
        else:
            count = max(1, len(colors) - 1)
            stops = [(i / count, to_rgba(c)) for i, c in enumerate(colors)]
        return LinearSegmentedColormap(name, stops, N)

    def _table(self):
        if self._lut is None:
            stops, table = self._stops, []
            for i in range(self.N):
                x = i / max(1, self.N - 1)
                for k in range(1, len(stops)):
                    if x <= stops[k][0] or k == len(stops) - 1:
                        (a, ca), (b, cb) = stops[k - 1], stops[k]
                        f = 0.0 if b == a else max(0.0, min(1.0, (x - a) / (b - a)))
                        table.append(tuple(ca[j] + (cb[j] - ca[j]) * f for j in range(4)))
                        break
                else:
                    table.append(stops[0][1])
            self._lut = table
        return self._lut


# Colour maps by their stops, read off matplotlib's own tables at even steps.
_MAP_STOPS = {
    'viridis': ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b',
                '#fde725'],
    'plasma': ['#0d0887', '#46039f', '#7201a8', '#9c179e', '#bd3786', '#d8576b', '#ed7953', '#fb9f3a', '#fdca26',
               '#f0f921'],
    'inferno': ['#000004', '#1b0c41', '#4a0c6b', '#781c6d', '#a52c60', '#cf4446', '#ed6925', '#fb9b06', '#f7d13d',
                '#fcffa4'],
    'magma': ['#000004', '#180f3d', '#440f76', '#721f81', '#9e2f7f', '#cd4071', '#f1605d', '#fd9668', '#feca8d',
              '#fcfdbf'],
    'cividis': ['#00224e', '#123570', '#3b496c', '#575d6d', '#707173', '#8a8779', '#a69d75', '#c4b56c', '#e4cf5b',
                '#fee838'],
    'coolwarm': ['#3b4cc0', '#6282ea', '#8db0fe', '#b8d0f9', '#dddcdc', '#f5c4ac', '#f49a7b', '#de604d', '#b40426'],
    'bwr': ['#0000ff', '#ffffff', '#ff0000'],
    'seismic': ['#00004c', '#0000ff', '#ffffff', '#ff0000', '#7f0000'],
    'RdBu': ['#67001f', '#b2182b', '#d6604d', '#f4a582', '#fddbc7', '#f7f7f7', '#d1e5f0', '#92c5de', '#4393c3',
             '#2166ac', '#053061'],
    'RdYlGn': ['#a50026', '#d73027', '#f46d43', '#fdae61', '#fee08b', '#ffffbf', '#d9ef8b', '#a6d96a', '#66bd63',
               '#1a9850', '#006837'],
    'RdYlBu': ['#a50026', '#d73027', '#f46d43', '#fdae61', '#fee090', '#ffffbf', '#e0f3f8', '#abd9e9', '#74add1',
               '#4575b4', '#313695'],
    'Spectral': ['#9e0142', '#d53e4f', '#f46d43', '#fdae61', '#fee08b', '#ffffbf', '#e6f598', '#abdda4', '#66c2a5',
                 '#3288bd', '#5e4fa2'],
    'PiYG': ['#8e0152', '#c51b7d', '#de77ae', '#f1b6da', '#fde0ef', '#f7f7f7', '#e6f5d0', '#b8e186', '#7fbc41',
             '#4d9221', '#276419'],
    'Blues': ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'],
    'Greens': ['#f7fcf5', '#e5f5e0', '#c7e9c0', '#a1d99b', '#74c476', '#41ab5d', '#238b45', '#006d2c', '#00441b'],
    'Reds': ['#fff5f0', '#fee0d2', '#fcbba1', '#fc9272', '#fb6a4a', '#ef3b2c', '#cb181d', '#a50f15', '#67000d'],
    'Oranges': ['#fff5eb', '#fee6ce', '#fdd0a2', '#fdae6b', '#fd8d3c', '#f16913', '#d94801', '#a63603', '#7f2704'],
    'Purples': ['#fcfbfd', '#efedf5', '#dadaeb', '#bcbddc', '#9e9ac8', '#807dba', '#6a51a3', '#54278f', '#3f007d'],
    'Greys': ['#ffffff', '#f0f0f0', '#d9d9d9', '#bdbdbd', '#969696', '#737373', '#525252', '#252525', '#000000'],
    'YlOrRd': ['#ffffcc', '#ffeda0', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#bd0026', '#800026'],
    'YlGnBu': ['#ffffd9', '#edf8b1', '#c7e9b4', '#7fcdbb', '#41b6c4', '#1d91c0', '#225ea8', '#253494', '#081d58'],
    'YlGn': ['#ffffe5', '#f7fcb9', '#d9f0a3', '#addd8e', '#78c679', '#41ab5d', '#238443', '#006837', '#004529'],
    'gray': ['#000000', '#ffffff'],
    'binary': ['#ffffff', '#000000'],
    'hot': [(0.0, '#0b0000'), (0.365, '#ff0000'), (0.746, '#ffff00'), (1.0, '#ffffff')],
    'jet': ['#00007f', '#0000ff', '#007fff', '#00ffff', '#7fff7f', '#ffff00', '#ff7f00', '#ff0000', '#7f0000'],
    'turbo': ['#30123b', '#4662d7', '#36aaf9', '#1ae4b6', '#72fe5e', '#c8ef34', '#faba39', '#f66b19', '#ca2a04',
              '#7a0403'],
    'cool': ['#00ffff', '#ff00ff'],
    'spring': ['#ff00ff', '#ffff00'],
    'summer': ['#008066', '#ffff66'],
    'autumn': ['#ff0000', '#ffff00'],
    'winter': ['#0000ff', '#00ff80'],
    'copper': ['#000000', '#ffc77f'],
}
_LISTED = {
    'tab10': DEFAULT_CYCLE,
    'tab20': ['#1f77b4', '#aec7e8', '#ff7f0e', '#ffbb78', '#2ca02c', '#98df8a', '#d62728', '#ff9896', '#9467bd',
              '#c5b0d5', '#8c564b', '#c49c94', '#e377c2', '#f7b6d2', '#7f7f7f', '#c7c7c7', '#bcbd22', '#dbdb8d',
              '#17becf', '#9edae5'],
    'Set1': ['#e41a1c', '#377eb8', '#4daf4a', '#984ea3', '#ff7f00', '#ffff33', '#a65628', '#f781bf', '#999999'],
    'Set2': ['#66c2a5', '#fc8d62', '#8da0cb', '#e78ac3', '#a6d854', '#ffd92f', '#e5c494', '#b3b3b3'],
    'Set3': ['#8dd3c7', '#ffffb3', '#bebada', '#fb8072', '#80b1d3', '#fdb462', '#b3de69', '#fccde5', '#d9d9d9',
             '#bc80bd', '#ccebc5', '#ffed6f'],
    'Pastel1': ['#fbb4ae', '#b3cde3', '#ccebc5', '#decbe4', '#fed9a6', '#ffffcc', '#e5d8bd', '#fddaec', '#f2f2f2'],
    'Paired': ['#a6cee3', '#1f78b4', '#b2df8a', '#33a02c', '#fb9a99', '#e31a1c', '#fdbf6f', '#ff7f00', '#cab2d6',
               '#6a3d9a', '#ffff99', '#b15928'],
    'Dark2': ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666'],
    'Accent': ['#7fc97f', '#beaed4', '#fdc086', '#ffff99', '#386cb0', '#f0027f', '#bf5b17', '#666666'],
}
_maps = {}


def _colormap(name):
    """The colour map named `name` (a '_r' suffix reverses it), or ValueError listing the known ones."""
    if isinstance(name, Colormap):
        return name
    if name is None:
        name = 'viridis'
    cmap = _maps.get(name)
    if cmap is not None:
        return cmap
    base = name[:-2] if name.endswith('_r') else name
    if base in _MAP_STOPS:
        stops = _MAP_STOPS[base]
        cmap = LinearSegmentedColormap(base, [(s[0], to_rgba(s[1])) for s in stops]) if isinstance(stops[0], tuple) \
            else LinearSegmentedColormap.from_list(base, stops)
    elif base in _LISTED:
        cmap = ListedColormap(_LISTED[base], base)
    elif base.lower() in ('grey', 'greys_r'):
        cmap = _colormap('gray')
    else:
        raise ValueError('%r is not a valid value for cmap; supported values are %s' % (
            name, ', '.join(repr(n) for n in sorted(list(_MAP_STOPS) + list(_LISTED)))))
    if name.endswith('_r'):
        cmap = cmap.reversed(name)
    _maps[name] = cmap
    return cmap


def _colormap_names():
    names = sorted(list(_MAP_STOPS) + list(_LISTED))
    return names + [n + '_r' for n in names]
