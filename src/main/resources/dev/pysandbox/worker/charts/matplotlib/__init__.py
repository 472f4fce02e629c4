"""matplotlib as agents write it, for this sandbox: the same names and calls, no native code. Figures are drawn by
the worker (antialiased PNG or SVG, in DejaVu Sans, matplotlib's default look). A call this package does not draw
raises NotImplementedError naming what to use instead; it never draws something else silently."""

__version__ = '3.9.0+sandbox'
__version_info__ = (3, 9, 0)

_DEFAULTS = {
    'backend': 'agg', 'interactive': False,
    'figure.figsize': [6.4, 4.8], 'figure.dpi': 100.0, 'figure.facecolor': 'white', 'figure.edgecolor': 'white',
    'figure.autolayout': False, 'figure.constrained_layout.use': False, 'figure.max_open_warning': 20,
    'figure.subplot.left': 0.125, 'figure.subplot.right': 0.9, 'figure.subplot.bottom': 0.11,
    'figure.subplot.top': 0.88, 'figure.subplot.wspace': 0.2, 'figure.subplot.hspace': 0.2,
    'figure.titlesize': 'large',
    'savefig.dpi': 'figure', 'savefig.format': 'png', 'savefig.bbox': None, 'savefig.facecolor': 'auto',
    'lines.linewidth': 1.5, 'lines.markersize': 6.0, 'lines.linestyle': '-', 'lines.marker': 'None',
    'lines.color': 'C0',
    'axes.grid': False, 'axes.facecolor': 'white', 'axes.edgecolor': 'black', 'axes.linewidth': 0.8,
    'axes.titlesize': 'large', 'axes.labelsize': 'medium', 'axes.titleweight': 'normal',
    'axes.labelweight': 'normal', 'axes.spines.left': True, 'axes.spines.right': True, 'axes.spines.top': True,
    'axes.spines.bottom': True, 'axes.axisbelow': 'line', 'axes.xmargin': 0.05, 'axes.ymargin': 0.05,
    'axes.unicode_minus': True, 'axes.formatter.useoffset': True, 'axes.titlelocation': 'center',
    'grid.color': '#b0b0b0', 'grid.linewidth': 0.8, 'grid.linestyle': '-', 'grid.alpha': 1.0,
    'legend.loc': 'best', 'legend.frameon': True, 'legend.fontsize': 'medium', 'legend.framealpha': 0.8,
    'hist.bins': 10, 'image.cmap': 'viridis', 'image.aspect': 'equal', 'image.origin': 'upper',
    'font.size': 10.0, 'font.family': ['sans-serif'], 'font.sans-serif': ['DejaVu Sans'], 'font.weight': 'normal',
    'xtick.labelsize': 'medium', 'ytick.labelsize': 'medium', 'xtick.direction': 'out', 'ytick.direction': 'out',
    'xtick.major.size': 3.5, 'ytick.major.size': 3.5, 'xtick.color': 'black', 'ytick.color': 'black',
    'text.color': 'black', 'text.usetex': False, 'mathtext.default': 'it', 'pdf.fonttype': 3, 'svg.fonttype': 'path',
    'axes.prop_cycle': None, 'date.autoformatter.day': '%Y-%m-%d', 'scatter.marker': 'o', 'errorbar.capsize': 0.0,
    'boxplot.showmeans': False, 'patch.edgecolor': 'black', 'patch.force_edgecolor': False,
}


class RcParams(dict):
    """matplotlib's settings. The keys that change a drawing here are those in _DEFAULTS; others are kept."""

    def __setitem__(self, key, value):
        if key == 'axes.prop_cycle' and value is not None:
            from matplotlib import colors
            colors._set_cycle(value.by_key().get('color', []) if hasattr(value, 'by_key') else value)
        if key == 'figure.autolayout' and value:
            pass
        dict.__setitem__(self, key, value)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def copy(self):
        return dict(self)


rcParams = RcParams(_DEFAULTS)
rcParamsDefault = dict(_DEFAULTS)


def rc(group, **kwargs):
    aliases = {'lw': 'linewidth', 'ls': 'linestyle', 'c': 'color', 'fc': 'facecolor', 'ec': 'edgecolor',
               'mew': 'markeredgewidth', 'aa': 'antialiased'}
    for key, value in kwargs.items():
        rcParams['%s.%s' % (group, aliases.get(key, key))] = value


def rcdefaults():
    from matplotlib import colors
    dict.clear(rcParams)
    dict.update(rcParams, _DEFAULTS)
    colors._set_cycle(colors.DEFAULT_CYCLE)


class rc_context:
    def __init__(self, rc=None, fname=None):
        self._rc, self._saved = rc or {}, None

    def __enter__(self):
        self._saved = dict(rcParams)
        rcParams.update(self._rc)
        return self

    def __exit__(self, *exc):
        dict.clear(rcParams)
        dict.update(rcParams, self._saved)
        return False


def use(backend, *, force=True):
    """Choosing a backend is a no-op here: figures are always drawn by the sandbox's renderer (agg-like)."""


def get_backend():
    return 'agg'


def is_interactive():
    return False


def interactive(b):
    pass


def get_cachedir():
    return '/tmp'


def get_configdir():
    return '/tmp'


def __getattr__(name):
    if name == 'colormaps':
        from matplotlib import cm
        return cm.colormaps
    if name in ('pyplot', 'colors', 'ticker', 'dates', 'cm', 'patches', 'lines', 'figure', 'axes', 'style',
                'gridspec', 'text', 'collections', 'colorbar', 'image', 'artist', 'container'):
        import importlib
        return importlib.import_module('matplotlib.' + name)
    raise AttributeError("module 'matplotlib' has no attribute %r" % name)
