"""plt.style.use: the styles agents pick, as the settings that change what is drawn here (backgrounds, grid,
colour cycle). A style this package cannot draw raises OSError as matplotlib does for an unknown one."""
from matplotlib import rcParams, rcdefaults

_GGPLOT = ['#E24A33', '#348ABD', '#988ED5', '#777777', '#FBC15E', '#8EBA42', '#FFB5B8']
_DEEP = ['#4C72B0', '#DD8452', '#55A868', '#C44E52', '#8172B3', '#937860', '#DA8BC3', '#8C8C8C', '#CCB974',
         '#64B5CD']
_BMH = ['#348ABD', '#A60628', '#7A68A6', '#467821', '#D55E00', '#CC79A7', '#56B4E9', '#009E73', '#F0E442', '#0072B2']
_538 = ['#008fd5', '#fc4f30', '#e5ae38', '#6d904f', '#8b8b8b', '#810f7c']
_COLORBLIND = ['#006BA4', '#FF800E', '#ABABAB', '#595959', '#5F9ED1', '#C85200', '#898989', '#A2C8EC', '#FFBC79',
               '#CFCFCF']

library = {
    'default': {},
    'classic': {},
    'fast': {},
    'ggplot': {'axes.facecolor': '#E5E5E5', 'axes.grid': True, 'grid.color': 'white', 'axes.prop_cycle': _GGPLOT},
    'seaborn-v0_8': {'axes.facecolor': '#EAEAF2', 'axes.grid': True, 'grid.color': 'white', 'axes.prop_cycle': _DEEP},
    'seaborn-v0_8-darkgrid': {'axes.facecolor': '#EAEAF2', 'axes.grid': True, 'grid.color': 'white',
                              'axes.prop_cycle': _DEEP},
    'seaborn-v0_8-whitegrid': {'axes.grid': True, 'grid.color': '#cccccc', 'axes.prop_cycle': _DEEP},
    'seaborn-v0_8-white': {'axes.prop_cycle': _DEEP},
    'seaborn-v0_8-deep': {'axes.prop_cycle': _DEEP},
    'seaborn-v0_8-colorblind': {'axes.prop_cycle': ['#0173B2', '#DE8F05', '#029E73', '#D55E00', '#CC78BC',
                                                    '#CA9161', '#FBAFE4', '#949494', '#ECE133', '#56B4E9']},
    'seaborn-v0_8-paper': {}, 'seaborn-v0_8-notebook': {}, 'seaborn-v0_8-talk': {}, 'seaborn-v0_8-poster': {},
    'bmh': {'axes.facecolor': '#eeeeee', 'axes.grid': True, 'axes.prop_cycle': _BMH},
    'fivethirtyeight': {'axes.facecolor': '#f0f0f0', 'figure.facecolor': '#f0f0f0', 'axes.grid': True,
                        'grid.color': '#cbcbcb', 'axes.prop_cycle': _538},
    'tableau-colorblind10': {'axes.prop_cycle': _COLORBLIND},
    'grayscale': {'axes.prop_cycle': ['0.00', '0.40', '0.60', '0.70']},
}
for _old in ('seaborn', 'seaborn-darkgrid', 'seaborn-whitegrid', 'seaborn-white', 'seaborn-deep',
             'seaborn-colorblind', 'seaborn-paper', 'seaborn-notebook', 'seaborn-talk', 'seaborn-poster'):
    library[_old] = library['seaborn-v0_8' + _old[len('seaborn'):]]
available = sorted(library)


def use(style):
    styles = [style] if isinstance(style, (str, dict)) else list(style)
    for name in styles:
        if isinstance(name, dict):
            rcParams.update(name)
            continue
        if name not in library:
            if name in ('dark_background', 'Solarize_Light2'):
                raise NotImplementedError('style %r: light text on a dark background is not drawn by this '
                                          'sandbox\'s matplotlib; use "default", "ggplot", "seaborn-v0_8" or "bmh"'
                                          % name)
            raise OSError('%r is not a valid package style, path of style file, URL of style file, or library style '
                          'name (library styles are listed in `style.available`)' % (name,))
        if name in ('default', 'classic'):
            rcdefaults()
        rcParams.update(library[name])


class context:
    def __init__(self, style, after_reset=False):
        self._style = style

    def __enter__(self):
        self._saved = dict(rcParams)
        use(self._style)

    def __exit__(self, *exc):
        from matplotlib import colors
        dict.clear(rcParams)
        dict.update(rcParams, self._saved)
        colors._set_cycle(self._saved.get('axes.prop_cycle') or colors.DEFAULT_CYCLE)
        return False
