"""Colour maps by name, and ScalarMappable: anything coloured by values through a map (scatter with c=, imshow),
which colorbar() reads."""
from matplotlib import colors as _colors


def get_cmap(name=None, lut=None):
    cmap = _colors._colormap(name)
    return cmap.resampled(lut) if lut else cmap


class _Registry(dict):
    def __getitem__(self, name):
        return _colors._colormap(name)

    def __contains__(self, name):
        return name in _colors._colormap_names()

    def __iter__(self):
        return iter(_colors._colormap_names())

    def __len__(self):
        return len(_colors._colormap_names())

    def get_cmap(self, name):
        return _colors._colormap(name)

    def register(self, cmap, *, name=None, force=False):
        _colors._maps[name or cmap.name] = cmap


colormaps = _Registry()
_colormaps = colormaps


class ScalarMappable:
    def __init__(self, norm=None, cmap=None):
        self.norm = norm if norm is not None else _colors.Normalize()
        self.cmap = _colors._colormap(cmap)
        self.colorbar = None
        self._A = None

    def set_cmap(self, cmap):
        self.cmap = _colors._colormap(cmap)

    def get_cmap(self):
        return self.cmap

    def set_norm(self, norm):
        self.norm = norm

    def set_clim(self, vmin=None, vmax=None):
        if isinstance(vmin, (tuple, list)):
            vmin, vmax = vmin
        self.norm.vmin, self.norm.vmax = vmin, vmax

    def get_clim(self):
        return self.norm.vmin, self.norm.vmax

    def set_array(self, values):
        self._A = list(values)

    def get_array(self):
        return self._A

    def to_rgba(self, x, alpha=None, bytes=False, norm=True):
        return self.cmap(self.norm(x) if norm else x, alpha, bytes)

    def _limits_of_values(self):
        values = getattr(self, '_values', None) or self._A or []
        self.norm.autoscale_None(values)
        return self.norm.vmin, self.norm.vmax


def __getattr__(name):
    if name in _colors._colormap_names():
        return _colors._colormap(name)
    raise AttributeError("module 'matplotlib.cm' has no attribute %r" % name)
