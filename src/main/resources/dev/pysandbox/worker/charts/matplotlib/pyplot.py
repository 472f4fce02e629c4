"""pyplot: the current figure and axes, and every plotting call on them, as agents write them. Figures shown
(plt.show()), saved (plt.savefig()) or still open when the code ends come back with the call's answer as images."""
from matplotlib import _bridge, rcParams, colors as _colors, cm, style  # noqa: F401 (cm, style: plt.cm, plt.style)
from matplotlib.artist import setp, getp  # noqa: F401
from matplotlib.cm import get_cmap, colormaps  # noqa: F401
from matplotlib.figure import Figure, figaspect  # noqa: F401
from matplotlib.axes import Axes  # noqa: F401
from matplotlib.lines import Line2D  # noqa: F401
from matplotlib.patches import Rectangle, Circle, Polygon, Wedge, Patch  # noqa: F401
from matplotlib.text import Text, Annotation  # noqa: F401
from matplotlib.gridspec import GridSpec  # noqa: F401
from matplotlib import ticker, dates  # noqa: F401
from matplotlib.ticker import (MaxNLocator, MultipleLocator, FuncFormatter, FormatStrFormatter,  # noqa: F401
                               StrMethodFormatter, PercentFormatter, NullLocator, FixedLocator)
from matplotlib.colors import Normalize  # noqa: F401

_figures = {}  # number -> Figure, in the order they were made
_current = []  # the current figure, or nothing
_current_axes = {}  # id(figure) -> its current axes


def _next_number():
    return max(_figures, default=0) + 1


def figure(num=None, figsize=None, dpi=None, *, facecolor=None, edgecolor=None, frameon=True, clear=False,
           **kwargs):
    if isinstance(num, Figure):
        _current[:] = [num]
        return num
    if num is not None and num in _figures and not clear:
        fig = _figures[num]
        _current[:] = [fig]
        return fig
    number = num if isinstance(num, int) else _next_number()
    limit = _bridge.limits().get('max_figures', 100)
    if len(_figures) >= limit:
        raise RuntimeError('more than %d figures are open; close the ones you are done with (plt.close(fig) or '
                           'plt.close("all"))' % limit)
    fig = Figure(figsize=figsize, dpi=dpi, facecolor=facecolor, num=number, **kwargs)
    _figures[number] = fig
    _current[:] = [fig]
    return fig


def gcf():
    if not _current:
        return figure()
    return _current[0]


def gca():
    return gcf().gca()


def sca(ax):
    _current[:] = [ax.figure]
    ax.figure.sca(ax)
    return ax


def get_fignums():
    return sorted(_figures)


def fignum_exists(num):
    return num in _figures


def subplots(nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True, width_ratios=None, height_ratios=None,
             subplot_kw=None, gridspec_kw=None, **fig_kw):
    fig = figure(**fig_kw)
    axes = fig.subplots(nrows, ncols, sharex=sharex, sharey=sharey, squeeze=squeeze, width_ratios=width_ratios,
                        height_ratios=height_ratios, subplot_kw=subplot_kw, gridspec_kw=gridspec_kw)
    return fig, axes


def subplot(*args, **kwargs):
    return gcf().add_subplot(*args, **kwargs)


def subplot2grid(shape, loc, rowspan=1, colspan=1, fig=None, **kwargs):
    from matplotlib.gridspec import GridSpec
    grid = GridSpec(shape[0], shape[1])
    return (fig or gcf()).add_subplot(grid[loc[0]:loc[0] + rowspan, loc[1]:loc[1] + colspan], **kwargs)


def subplot_mosaic(*args, **kwargs):
    raise NotImplementedError('subplot_mosaic() is not laid out by this sandbox\'s matplotlib; use subplots(nrows, '
                              'ncols) or fig.add_gridspec')


def axes(arg=None, **kwargs):
    if arg is None:
        return subplot(1, 1, 1, **kwargs)
    return gcf().add_axes(arg, **kwargs)


def twinx(ax=None):
    return (ax or gca()).twinx()


def close(fig=None):
    if fig is None:
        if _current:
            close(_current[0])
        return
    if fig == 'all':
        _figures.clear()
        _current.clear()
        return
    if isinstance(fig, Figure):
        number = next((n for n, f in _figures.items() if f is fig), None)
    else:
        number = fig
    if number in _figures:
        closed = _figures.pop(number)
        if _current and _current[0] is closed:
            _current[:] = [_figures[max(_figures)]] if _figures else []


def clf():
    gcf().clf()


def cla():
    gca().cla()


def _show_figure(fig):
    if not fig.axes and fig._suptitle is None:
        return
    spec = fig._spec()
    _bridge.show(spec, 'figure-%s.png' % (fig.number or 1))
    fig._last_drawn = spec


def show(*args, block=None, **kwargs):
    """Every open figure comes back with the call's answer as an image, and is closed (as a notebook shows it)."""
    for number in sorted(_figures):
        _show_figure(_figures[number])
    close('all')


def _sandbox_finish():
    """When the call's code ends: figures still open that were changed since they were last saved or shown come
    back as images too (the prelude calls this, charts.py)."""
    for number in sorted(_figures):
        fig = _figures[number]
        if fig.axes or fig._suptitle is not None:
            spec = fig._spec()
            if spec != fig._last_drawn:
                _bridge.show(spec, 'figure-%s.png' % (fig.number or 1))
                fig._last_drawn = spec


def savefig(*args, **kwargs):
    return gcf().savefig(*args, **kwargs)


def draw():
    pass


def pause(interval):
    pass


def ion():
    pass


def ioff():
    pass


def isinteractive():
    return False


def switch_backend(name):
    pass


def get_backend():
    return 'agg'


def tight_layout(**kwargs):
    gcf().tight_layout(**kwargs)


def subplots_adjust(left=None, bottom=None, right=None, top=None, wspace=None, hspace=None):
    gcf().subplots_adjust(left, bottom, right, top, wspace, hspace)


def suptitle(t, **kwargs):
    return gcf().suptitle(t, **kwargs)


def figtext(x, y, s, **kwargs):
    return gcf().text(x, y, s, **kwargs)


def figlegend(*args, **kwargs):
    return gcf().legend(*args, **kwargs)


def colorbar(mappable=None, cax=None, ax=None, **kwargs):
    if mappable is None:
        target = ax or gca()
        mappable = next((a for a in reversed(target._children) if hasattr(a, 'cmap')), None)
        if mappable is None:
            raise RuntimeError('No mappable was found to use for colorbar creation. First define a mappable such as '
                               'an image (with imshow) or a scatter with c=values')
    return gcf().colorbar(mappable, cax=cax, ax=ax, **kwargs)


def title(label, fontdict=None, loc=None, pad=None, **kwargs):
    return gca().set_title(label, fontdict, loc, pad, **kwargs)


def xlabel(xlabel, fontdict=None, labelpad=None, **kwargs):
    return gca().set_xlabel(xlabel, fontdict, labelpad, **kwargs)


def ylabel(ylabel, fontdict=None, labelpad=None, **kwargs):
    return gca().set_ylabel(ylabel, fontdict, labelpad, **kwargs)


def xlim(*args, **kwargs):
    ax = gca()
    if not args and not kwargs:
        return ax.get_xlim()
    return ax.set_xlim(*args, **kwargs)


def ylim(*args, **kwargs):
    ax = gca()
    if not args and not kwargs:
        return ax.get_ylim()
    return ax.set_ylim(*args, **kwargs)


def xticks(ticks=None, labels=None, *, minor=False, **kwargs):
    ax = gca()
    if ticks is None:
        if labels is not None or kwargs:
            ax.xaxis._apply_label_style(dict(kwargs))
            if labels is not None:
                ax.set_xticklabels(labels)
        return ax.get_xticks(), ax.get_xticklabels()
    return ax.set_xticks(ticks, labels, minor=minor, **kwargs)


def yticks(ticks=None, labels=None, *, minor=False, **kwargs):
    ax = gca()
    if ticks is None:
        if labels is not None or kwargs:
            ax.yaxis._apply_label_style(dict(kwargs))
            if labels is not None:
                ax.set_yticklabels(labels)
        return ax.get_yticks(), ax.get_yticklabels()
    return ax.set_yticks(ticks, labels, minor=minor, **kwargs)


def xscale(value, **kwargs):
    gca().set_xscale(value, **kwargs)


def yscale(value, **kwargs):
    gca().set_yscale(value, **kwargs)


def gci():
    for a in reversed(gca()._children):
        if hasattr(a, 'cmap'):
            return a
    return None


def clim(vmin=None, vmax=None):
    image = gci()
    if image is not None:
        image.set_clim(vmin, vmax)


def set_cmap(cmap):
    rcParams['image.cmap'] = cmap


def _on_axes(name):
    def call(*args, **kwargs):
        return getattr(gca(), name)(*args, **kwargs)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = getattr(Axes, name).__doc__
    return call


for _name in ('plot', 'scatter', 'bar', 'barh', 'bar_label', 'hist', 'pie', 'fill_between', 'fill_betweenx',
              'fill', 'stackplot', 'errorbar', 'boxplot', 'axhline', 'axvline', 'axhspan', 'axvspan', 'hlines',
              'vlines', 'text', 'annotate', 'imshow', 'matshow', 'step', 'stem', 'semilogy', 'semilogx', 'loglog',
              'legend', 'grid', 'axis', 'margins', 'tick_params', 'minorticks_on', 'minorticks_off',
              'locator_params', 'ticklabel_format', 'contour', 'contourf', 'pcolormesh', 'pcolor', 'hexbin',
              'violinplot', 'quiver', 'streamplot', 'table', 'axline', 'broken_barh', 'eventplot', 'autoscale'):
    globals()[_name] = _on_axes(_name)
del _name


def __getattr__(name):
    if name.startswith('_'):
        raise AttributeError("module 'matplotlib.pyplot' has no attribute %r" % name)
    from matplotlib import _refusal
    return _refusal.refusing('matplotlib.pyplot', name)
