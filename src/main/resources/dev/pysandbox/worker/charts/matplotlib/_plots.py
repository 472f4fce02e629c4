"""The plot kinds of an axes (mixed into Axes): plot, scatter, bar, hist, pie, fill_between, errorbar, boxplot,
axhline, text, annotate, imshow ... Each makes artists (lines.py, patches.py, collections.py ...) and adds them."""
import builtins
import math

from matplotlib import _data, _refusal, _style, colors as _colors


def _unsupported(name, instead):
    refuse = _refusal.refusing('Axes', name, instead)

    def method(self, *args, **kwargs):
        refuse()
    method.__name__ = method.__qualname__ = name
    return method


def _pop_color(kwargs):
    for key in ('color', 'c'):
        if key in kwargs:
            return kwargs.pop(key)
    return None


def _line_kwargs(kwargs):
    """plot()'s keyword arguments under their long names."""
    aliases = {'lw': 'linewidth', 'ls': 'linestyle', 'ms': 'markersize', 'mfc': 'markerfacecolor',
               'mec': 'markeredgecolor', 'mew': 'markeredgewidth', 'c': 'color'}
    return {aliases.get(k, k): v for k, v in kwargs.items()}


def _quantile(sorted_values, q):
    """The q-quantile with linear interpolation (numpy's default), of a sorted list."""
    if not sorted_values:
        return float('nan')
    position = (len(sorted_values) - 1) * q
    low = int(math.floor(position))
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


class Plots:
    def plot(self, *args, scalex=True, scaley=True, data=None, **kwargs):
        from matplotlib.lines import Line2D
        kwargs = _line_kwargs(kwargs)
        groups, rest = [], list(args)
        while rest:
            if isinstance(rest[0], str):
                raise TypeError('plot() got a format string %r where it expected data' % (rest[0],))
            if len(rest) >= 2 and not isinstance(rest[1], str):
                x, y, rest = rest[0], rest[1], rest[2:]
            else:
                y, rest = rest[0], rest[1:]
                x = None
            fmt = ''
            if rest and isinstance(rest[0], str):
                fmt, rest = rest[0], rest[1:]
            groups.append((x, y, fmt))
        made = []
        for x, y, fmt in groups:
            ys = _data.sequence(y, 'y')
            columns = [list(_data.sequence(row)) for row in ys] if _data.is_nested(ys) else None
            if columns is not None:  # a 2-D y: one line per column
                series = [[row[i] for row in columns] for i in range(len(columns[0]))]
            else:
                series = [ys]
            for values in series:
                xs = list(range(len(values))) if x is None else _data.sequence(x, 'x')
                if len(xs) != len(values):
                    raise ValueError('x and y must have same first dimension, but have shapes (%d,) and (%d,)'
                                     % (len(xs), len(values)))
                color, marker, linestyle = _style.parse_format(fmt) if fmt else (None, None, None)
                options = dict(kwargs)
                if color is not None and 'color' not in options:
                    options['color'] = color
                if marker is not None and 'marker' not in options:
                    options['marker'] = marker
                if linestyle is not None and 'linestyle' not in options:
                    options['linestyle'] = linestyle
                if options.get('color') is None:
                    options['color'] = self._next_color()
                made.append(self._add(Line2D(xs, values, **options)))
        return made

    def step(self, x, y, *args, where='pre', **kwargs):
        kwargs['drawstyle'] = 'steps-' + where
        return self.plot(x, y, *args, **kwargs)

    def semilogy(self, *args, **kwargs):
        self.set_yscale('log')
        return self.plot(*args, **kwargs)

    def semilogx(self, *args, **kwargs):
        self.set_xscale('log')
        return self.plot(*args, **kwargs)

    def loglog(self, *args, **kwargs):
        self.set_xscale('log')
        self.set_yscale('log')
        return self.plot(*args, **kwargs)

    def scatter(self, x, y, s=None, c=None, marker=None, cmap=None, norm=None, vmin=None, vmax=None, alpha=None,
                linewidths=None, *, edgecolors=None, label=None, color=None, zorder=None, **kwargs):
        from matplotlib import rcParams
        from matplotlib.collections import PathCollection
        xs, ys = _data.sequence(x, 'x'), _data.sequence(y, 'y')
        if len(xs) != len(ys):
            raise ValueError('x and y must be the same size')
        kwargs.pop('plotnonfinite', None)
        if 'edgecolor' in kwargs:
            edgecolors = kwargs.pop('edgecolor')
        if 'ec' in kwargs:
            edgecolors = kwargs.pop('ec')
        if 'facecolor' in kwargs or 'facecolors' in kwargs:
            color = kwargs.pop('facecolor', kwargs.pop('facecolors', None))
        if kwargs:
            raise AttributeError('scatter() got an unexpected keyword argument %r' % next(iter(kwargs)))
        if s is None:
            sizes = [rcParams['lines.markersize'] ** 2]
        elif isinstance(s, (int, float)):
            sizes = [float(s)]
        else:
            sizes = [_data.number(v) for v in _data.sequence(s, 's')]
        values = None
        if c is None and color is not None:
            c = color
        if c is None:
            faces = [self._next_color()]
        elif isinstance(c, str) or isinstance(c, tuple) and len(c) in (3, 4) and _colors.is_color_like(c):
            faces = [c]
        else:
            seq = _data.sequence(c, 'c')
            if seq and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in seq):
                values, faces = [float(v) for v in seq], []
            else:
                faces = seq
        code = _style.check_marker(marker or 'o')
        collection = PathCollection(xs, ys, sizes, faces, values, code,
                                    edgecolors if edgecolors not in (None, 'face') else None,
                                    float(linewidths) if isinstance(linewidths, (int, float)) else 1.0, label=label,
                                    alpha=alpha, zorder=zorder)
        if cmap is not None:
            collection.set_cmap(cmap)
        if norm is not None:
            collection.norm = norm
        if vmin is not None or vmax is not None:
            collection.norm.vmin, collection.norm.vmax = vmin, vmax
        return self._add(collection)

    def _bars(self, vertical, positions, lengths, thickness, base, align, color, edgecolor, linewidth, label,
              tick_label, alpha, xerr, yerr, capsize, kwargs):
        from matplotlib.container import BarContainer
        from matplotlib.patches import Rectangle
        axis = self.xaxis if vertical else self.yaxis
        positions = _data.sequence(positions, 'x' if vertical else 'y')
        lengths = _data.sequence(lengths, 'height' if vertical else 'width')
        count = max(len(positions), len(lengths))
        positions = positions * count if len(positions) == 1 else positions
        lengths = lengths * count if len(lengths) == 1 else lengths
        if len(positions) != len(lengths):
            raise ValueError('shape mismatch: objects cannot be broadcast to a single shape: %d bar positions and %d'
                             ' bar lengths' % (len(positions), len(lengths)))
        axis._register(positions)

        def each(value, name):
            seq = _data.sequence(value, name) if value is not None and not isinstance(value, (str, int, float)) \
                else [value]
            return [seq[i % len(seq)] for i in range(count)] if seq else [None] * count

        thickness, base = each(thickness, 'width'), each(0 if base is None else base, 'bottom')
        if color is None:
            color = self._next_color()
        colors = each(color, 'color') if not (isinstance(color, tuple) and _colors.is_color_like(color)) \
            else [color] * count
        edges = each(edgecolor, 'edgecolor') if not isinstance(edgecolor, tuple) else [edgecolor] * count
        linewidth = kwargs.pop('lw', linewidth)
        kwargs.pop('error_kw', None)
        ecolor = kwargs.pop('ecolor', 'black')
        if kwargs.get('hatch'):
            raise NotImplementedError('bar(hatch=%r): hatched bars are not drawn by this sandbox\'s matplotlib; use '
                                      'colours or alpha to tell bars apart' % (kwargs['hatch'],))
        kwargs.pop('hatch', None)
        kwargs.pop('zorder', None)
        if kwargs:
            raise AttributeError('bar() got an unexpected keyword argument %r' % next(iter(kwargs)))
        patches = []
        for i in range(count):
            center = axis._number(positions[i])
            size = float(thickness[i])
            start = center - size / 2 if align == 'center' else center
            length = _data.number(lengths[i])
            start_base = _data.number(base[i])
            xy, w, h = ((start, start_base), size, length) if vertical else ((start_base, start), length, size)
            patch = Rectangle(xy, w, h, facecolor=colors[i], edgecolor=edges[i], linewidth=linewidth,
                              alpha=alpha, label='_nolegend_' if i else label)
            patch._in_container = label is not None
            patch._bar_base = (vertical, start_base)
            patches.append(self._add(patch))
        if tick_label is not None:
            labels = [str(v) for v in _data.sequence(tick_label, 'tick_label')]
            axis.set_ticks([axis._number(p) for p in positions], labels)
        container = BarContainer(patches, datavalues=lengths, orientation='vertical' if vertical else 'horizontal',
                                 label=label or '')
        if not hasattr(self, '_containers'):
            self._containers = []
        if label is not None:
            self._containers.append(container)
        errors = yerr if vertical else xerr
        if errors is not None:
            centers = [axis._number(p) for p in positions]
            tops = [_data.number(b) + _data.number(l) for b, l in zip(base, lengths)]
            if vertical:
                self.errorbar(centers, tops, yerr=errors, fmt='none', ecolor=ecolor, capsize=capsize or 0)
            else:
                self.errorbar(tops, centers, xerr=errors, fmt='none', ecolor=ecolor, capsize=capsize or 0)
        return container

    def bar(self, x, height, width=0.8, bottom=None, *, align='center', color=None, edgecolor=None, linewidth=None,
            label=None, tick_label=None, alpha=None, xerr=None, yerr=None, capsize=None, data=None, **kwargs):
        if 'facecolor' in kwargs:
            color = kwargs.pop('facecolor')
        if 'ec' in kwargs:
            edgecolor = kwargs.pop('ec')
        return self._bars(True, x, height, width, bottom, align, color, edgecolor, linewidth, label, tick_label,
                          alpha, xerr, yerr, capsize, kwargs)

    def barh(self, y, width, height=0.8, left=None, *, align='center', color=None, edgecolor=None, linewidth=None,
             label=None, tick_label=None, alpha=None, xerr=None, yerr=None, capsize=None, data=None, **kwargs):
        if 'facecolor' in kwargs:
            color = kwargs.pop('facecolor')
        return self._bars(False, y, width, height, left, align, color, edgecolor, linewidth, label, tick_label,
                          alpha, xerr, yerr, capsize, kwargs)

    def bar_label(self, container, labels=None, *, fmt='%g', label_type='edge', padding=0, **kwargs):
        from matplotlib.text import Text
        made = []
        for i, patch in enumerate(container.patches):
            value = container.datavalues[i] if container.datavalues is not None else patch.get_height()
            text = labels[i] if labels is not None else (fmt.format(value) if '{' in fmt else fmt % value)
            vertical = container.orientation == 'vertical'
            if vertical:
                x = patch.get_x() + patch.get_width() / 2
                y = patch.get_y() + (patch.get_height() if label_type == 'edge' else patch.get_height() / 2)
                made.append(self._add(Text(x, y, text, ha='center', va='bottom' if label_type == 'edge'
                                           else 'center', **kwargs)))
            else:
                x = patch.get_x() + (patch.get_width() if label_type == 'edge' else patch.get_width() / 2)
                y = patch.get_y() + patch.get_height() / 2
                made.append(self._add(Text(x, y, ' ' + str(text), ha='left' if label_type == 'edge' else 'center',
                                           va='center', **kwargs)))
        return made

    def hist(self, x, bins=None, range=None, density=False, weights=None, cumulative=False, bottom=None,
             histtype='bar', align='mid', orientation='vertical', rwidth=None, log=False, color=None, label=None,
             stacked=False, *, data=None, **kwargs):
        from matplotlib import rcParams
        datasets = _data.sequence(x, 'x')
        if not _data.is_nested(datasets):
            datasets = [datasets]
        datasets = [[_data.number(v) for v in _data.sequence(d)] for d in datasets]
        finite = [v for d in datasets for v in d if v == v and abs(v) != float('inf')]
        if range is not None:
            low, high = float(range[0]), float(range[1])
        else:
            low, high = (min(finite), max(finite)) if finite else (0.0, 1.0)
        if low == high:
            low, high = low - 0.5, high + 0.5
        if bins is None:
            bins = rcParams['hist.bins']
        if isinstance(bins, str):
            bins = max(1, int(math.ceil(math.log2(max(1, len(finite))) + 1))) if bins in ('auto', 'sturges') else 10
        if isinstance(bins, int):
            if bins < 1:
                raise ValueError('`bins` must be positive, when an integer')
            if bins > 100_000:
                raise ValueError('hist(bins=%d): at most 100,000 bins are drawn here' % bins)
            edges = [low + (high - low) * i / bins for i in builtins.range(bins + 1)]
        else:
            edges = [float(v) for v in _data.sequence(bins, 'bins')]
        weight_sets = None
        if weights is not None:
            weight_sets = _data.sequence(weights, 'weights')
            if not _data.is_nested(weight_sets):
                weight_sets = [weight_sets]
        counts_all = []
        import bisect
        for k, values in enumerate(datasets):
            counts = [0.0] * (len(edges) - 1)
            wts = weight_sets[k] if weight_sets is not None else None
            for i, v in enumerate(values):
                if not (edges[0] <= v <= edges[-1]):
                    continue
                index = min(len(counts) - 1, bisect.bisect_right(edges, v) - 1)
                counts[index] += float(wts[i]) if wts is not None else 1.0
            if density:
                total = sum(counts)
                counts = [c / total / (edges[i + 1] - edges[i]) if total else 0.0 for i, c in enumerate(counts)]
            if cumulative:
                running, cumulated = 0.0, []
                for c in counts:
                    running += c
                    cumulated.append(running)
                counts = cumulated
            counts_all.append(counts)
        colors = color if isinstance(color, (list, tuple)) and not _colors.is_color_like(color) else \
            [color] * len(datasets)
        labels = label if isinstance(label, (list, tuple)) else [label] + [None] * (len(datasets) - 1)
        edgecolor = kwargs.pop('edgecolor', kwargs.pop('ec', None))
        linewidth = kwargs.pop('linewidth', kwargs.pop('lw', None))
        alpha = kwargs.pop('alpha', None)
        kwargs.pop('zorder', None)
        if kwargs:
            raise AttributeError('hist() got an unexpected keyword argument %r' % next(iter(kwargs)))
        if log:
            (self.set_yscale if orientation == 'vertical' else self.set_xscale)('log')
        containers, below = [], [0.0] * (len(edges) - 1)
        for k, counts in enumerate(counts_all):
            color_k = colors[k] if colors[k] is not None else self._next_color()
            if histtype == 'step' or histtype == 'stepfilled':
                xs, ys = [edges[0]], [below[0]]
                for i, c in enumerate(counts):
                    xs += [edges[i], edges[i + 1]]
                    ys += [c + (below[i] if stacked else 0)] * 2
                xs.append(edges[-1])
                ys.append(below[-1] if stacked else 0)
                if orientation != 'vertical':
                    xs, ys = ys, xs
                if histtype == 'step':
                    from matplotlib.lines import Line2D
                    line = self._add(Line2D(xs, ys, color=color_k, linewidth=linewidth or 1.5, alpha=alpha,
                                            label=labels[k] if k < len(labels) else None))
                    containers.append([line])
                else:
                    from matplotlib.patches import Polygon
                    polygon = self._add(Polygon(list(zip(xs, ys)), facecolor=color_k, edgecolor=edgecolor,
                                                alpha=alpha, label=labels[k] if k < len(labels) else None))
                    containers.append([polygon])
                continue
            if stacked or len(counts_all) == 1:
                widths = [(edges[i + 1] - edges[i]) * (rwidth or 1.0) for i in builtins.range(len(counts))]
                starts = [edges[i] + (edges[i + 1] - edges[i] - widths[i]) / 2 for i in builtins.range(len(counts))]
                bases = list(below) if stacked else [0.0] * len(counts)
            else:  # several datasets side by side in each bin
                share = 1.0 / len(counts_all)
                widths = [(edges[i + 1] - edges[i]) * share * (rwidth or 1.0) for i in builtins.range(len(counts))]
                starts = [edges[i] + (edges[i + 1] - edges[i]) * share * k for i in builtins.range(len(counts))]
                bases = [0.0] * len(counts)
            if orientation == 'vertical':
                container = self.bar(starts, counts, widths, bottom=bases, align='edge', color=color_k,
                                     edgecolor=edgecolor, linewidth=linewidth, alpha=alpha,
                                     label=labels[k] if k < len(labels) else None)
            else:
                container = self.barh(starts, counts, widths, left=bases, align='edge', color=color_k,
                                      edgecolor=edgecolor, linewidth=linewidth, alpha=alpha,
                                      label=labels[k] if k < len(labels) else None)
            containers.append(container)
            if stacked:
                below = [b + c for b, c in zip(below, counts)]
        if len(counts_all) == 1:
            return counts_all[0], edges, containers[0]
        return counts_all, edges, containers

    def pie(self, x, explode=None, labels=None, colors=None, autopct=None, pctdistance=0.6, shadow=False,
            labeldistance=1.1, startangle=0, radius=1, counterclock=True, wedgeprops=None, textprops=None,
            center=(0, 0), frame=False, rotatelabels=False, *, normalize=True, hatch=None, data=None):
        from matplotlib.patches import Wedge
        from matplotlib.text import Text
        values = [_data.number(v) for v in _data.sequence(x, 'x')]
        if any(v < 0 for v in values):
            raise ValueError('Wedge sizes must be non negative values')
        total = sum(values)
        if total == 0:
            raise ValueError('pie() got only zeros: there is nothing to draw')
        fractions = [v / total for v in values] if normalize or total > 1 else values
        explode = [0.0] * len(values) if explode is None else [float(e) for e in explode]
        wedgeprops, textprops = dict(wedgeprops or {}), dict(textprops or {})
        if 'width' in wedgeprops:
            raise NotImplementedError("pie(wedgeprops={'width': ...}): donut charts are not drawn by this sandbox's "
                                      "matplotlib; draw a full pie, or a white Circle over its centre")
        wedges, texts, autotexts = [], [], []
        angle = float(startangle)
        cx, cy = center
        for i, fraction in enumerate(fractions):
            sweep = 360.0 * fraction * (1 if counterclock else -1)
            theta1, theta2 = (angle, angle + sweep) if counterclock else (angle + sweep, angle)
            middle = math.radians((theta1 + theta2) / 2)
            dx, dy = explode[i] * math.cos(middle), explode[i] * math.sin(middle)
            face = colors[i % len(colors)] if colors is not None else self._next_color()
            wedge = Wedge((cx + dx, cy + dy), radius, theta1, theta2, facecolor=face,
                          edgecolor=wedgeprops.get('edgecolor', wedgeprops.get('ec')),
                          linewidth=wedgeprops.get('linewidth', wedgeprops.get('lw')),
                          alpha=wedgeprops.get('alpha'), label=labels[i] if labels is not None else None)
            wedges.append(self._add(wedge))
            if labels is not None and labeldistance is not None:
                lx = cx + dx + radius * labeldistance * math.cos(middle)
                ly = cy + dy + radius * labeldistance * math.sin(middle)
                texts.append(self._add(Text(lx, ly, labels[i], ha='left' if lx > cx else 'right', va='center',
                                            **textprops)))
            if autopct is not None:
                px = cx + dx + radius * pctdistance * math.cos(middle)
                py = cy + dy + radius * pctdistance * math.sin(middle)
                text = autopct(100 * fraction) if callable(autopct) else autopct % (100 * fraction)
                autotexts.append(self._add(Text(px, py, text, ha='center', va='center', **textprops)))
            angle += sweep
        self._equal = True
        self._frame_on = False
        self.xaxis._visible = self.yaxis._visible = False
        self.set_xlim(cx - 1.25 * radius, cx + 1.25 * radius)
        self.set_ylim(cy - 1.25 * radius, cy + 1.25 * radius)
        if autopct is not None:
            return wedges, texts, autotexts
        return wedges, texts

    def fill_between(self, x, y1, y2=0, where=None, interpolate=False, step=None, *, data=None, **kwargs):
        return self._fill(x, y1, y2, where, True, kwargs)

    def fill_betweenx(self, y, x1, x2=0, where=None, step=None, interpolate=False, *, data=None, **kwargs):
        return self._fill(y, x1, x2, where, False, kwargs)

    def _fill(self, t, v1, v2, where, vertical, kwargs):
        from matplotlib.collections import PolyCollection
        ts = _data.sequence(t, 'x')
        first = _data.sequence(v1, 'y1') if not isinstance(v1, (int, float)) else [v1] * len(ts)
        second = _data.sequence(v2, 'y2') if not isinstance(v2, (int, float)) else [v2] * len(ts)
        if not (len(ts) == len(first) == len(second)):
            raise ValueError('fill_between: x, y1 and y2 must have the same length')
        mask = [True] * len(ts) if where is None else [bool(w) for w in _data.sequence(where, 'where')]
        polygons, run = [], []
        for i in range(len(ts) + 1):
            if i < len(ts) and mask[i]:
                run.append(i)
                continue
            if run:
                upper = [(ts[j], first[j]) for j in run]
                lower = [(ts[j], second[j]) for j in reversed(run)]
                polygon = upper + lower
                polygons.append(polygon if vertical else [(b, a) for a, b in polygon])
                run = []
        color = _pop_color(kwargs)
        face = kwargs.pop('facecolor', kwargs.pop('fc', color)) or self._next_color()
        edge = kwargs.pop('edgecolor', kwargs.pop('ec', None))
        label, alpha = kwargs.pop('label', None), kwargs.pop('alpha', None)
        linewidth = kwargs.pop('linewidth', kwargs.pop('lw', None))
        zorder = kwargs.pop('zorder', None)
        kwargs.pop('interpolate', None)
        kwargs.pop('linestyle', None)
        kwargs.pop('transform', None)
        if kwargs:
            raise AttributeError('fill_between() got an unexpected keyword argument %r' % next(iter(kwargs)))
        return self._add(PolyCollection(polygons, face, edge, linewidth, label=label, alpha=alpha, zorder=zorder))

    def fill(self, *args, **kwargs):
        from matplotlib.patches import Polygon
        x, y = args[0], args[1]
        color = args[2] if len(args) > 2 else _pop_color(kwargs) or self._next_color()
        return [self._add(Polygon(list(zip(_data.sequence(x), _data.sequence(y))), facecolor=color, **kwargs))]

    def stackplot(self, x, *args, labels=(), colors=None, baseline='zero', **kwargs):
        ys = [list(_data.sequence(a)) for a in args]
        if len(ys) == 1 and _data.is_nested(ys[0]):
            ys = [list(_data.sequence(r)) for r in ys[0]]
        below = [0.0] * len(_data.sequence(x))
        made = []
        for i, series in enumerate(ys):
            above = [b + _data.number(v) for b, v in zip(below, series)]
            made.append(self.fill_between(x, below, above, color=colors[i % len(colors)] if colors else None,
                                          label=labels[i] if i < len(labels) else None, **kwargs))
            below = above
        return made

    def errorbar(self, x, y, yerr=None, xerr=None, fmt='', ecolor=None, elinewidth=None, capsize=None,
                 barsabove=False, lolims=False, uplims=False, xlolims=False, xuplims=False, errorevery=1,
                 capthick=None, *, data=None, **kwargs):
        from matplotlib.collections import LineCollection
        from matplotlib.container import ErrorbarContainer
        from matplotlib.lines import Line2D
        xs, ys = _data.sequence(x, 'x'), _data.sequence(y, 'y')
        self.xaxis._register(xs)
        self.yaxis._register(ys)
        label = kwargs.pop('label', None)
        data_line = None
        if fmt != 'none':
            made = self.plot(xs, ys, fmt, **kwargs) if fmt else self.plot(xs, ys, **kwargs)
            data_line = made[0]
            data_line.set_label(label)
            color = data_line.get_color()
        else:
            color = _pop_color(kwargs) or self._next_color()
        ecolor = ecolor or color
        width = float(elinewidth or 1.5)
        cap = float(capsize or 0)
        segments, caps = [], []

        def spread(err, n):
            seq = _data.sequence(err) if not isinstance(err, (int, float)) else [err]
            if _data.is_nested(seq) and len(seq) == 2:
                return [_data.number(v) for v in seq[0]], [_data.number(v) for v in seq[1]]
            values = [_data.number(seq[i % len(seq)]) for i in range(n)]
            return values, values

        xn, yn = self.xaxis._numbers(xs), self.yaxis._numbers(ys)
        if yerr is not None:
            low, high = spread(yerr, len(xs))
            for i in range(len(xs)):
                segments.append([(xn[i], yn[i] - low[i]), (xn[i], yn[i] + high[i])])
        if xerr is not None:
            low, high = spread(xerr, len(xs))
            for i in range(len(xs)):
                segments.append([(xn[i] - low[i], yn[i]), (xn[i] + high[i], yn[i])])
        bars = self._add(LineCollection(segments, color=ecolor, linewidth=width, label='_nolegend_'))
        if cap > 0:
            markers = []
            for segment in segments:
                vertical = segment[0][0] == segment[1][0]
                for point in segment:
                    markers.append(self._add(Line2D([point[0]], [point[1]], linestyle='None',
                                                    marker='_' if vertical else '|', markersize=cap * 2,
                                                    color=ecolor, markeredgewidth=capthick, label='_nolegend_')))
            caps = markers
        if data_line is None and label:
            bars.set_label(label)
        return ErrorbarContainer((data_line, caps, [bars]), yerr is not None, xerr is not None, label=label or '')

    def boxplot(self, x, notch=None, sym=None, vert=None, whis=1.5, positions=None, widths=None, patch_artist=None,
                bootstrap=None, usermedians=None, conf_intervals=None, meanline=None, showmeans=None, showcaps=None,
                showbox=None, showfliers=None, boxprops=None, tick_labels=None, flierprops=None, medianprops=None,
                meanprops=None, capprops=None, whiskerprops=None, manage_ticks=True, autorange=False, zorder=None,
                capwidths=None, label=None, *, labels=None, orientation='vertical', data=None):
        from matplotlib.lines import Line2D
        from matplotlib.patches import Polygon
        datasets = _data.sequence(x, 'x')
        if not _data.is_nested(datasets):
            datasets = [datasets]
        vertical = orientation == 'vertical' if vert is None else bool(vert)
        names = tick_labels if tick_labels is not None else labels
        positions = list(positions) if positions is not None else [i + 1 for i in range(len(datasets))]
        width = 0.5 if widths is None else float(widths) if isinstance(widths, (int, float)) else None
        result = {'boxes': [], 'medians': [], 'whiskers': [], 'caps': [], 'fliers': [], 'means': []}
        box_props = dict(boxprops or {})
        face = box_props.get('facecolor', 'C0') if patch_artist else None

        def orient(points):
            return points if vertical else [(b, a) for a, b in points]

        for k, values in enumerate(datasets):
            values = sorted(v for v in (_data.number(v) for v in _data.sequence(values)) if v == v)
            if not values:
                continue
            q1, median, q3 = _quantile(values, 0.25), _quantile(values, 0.5), _quantile(values, 0.75)
            iqr = q3 - q1
            low_fence, high_fence = q1 - whis * iqr, q3 + whis * iqr
            low = min(v for v in values if v >= low_fence)
            high = max(v for v in values if v <= high_fence)
            p, w = positions[k], width if width is not None else float(widths[k])
            box = orient([(p - w / 2, q1), (p + w / 2, q1), (p + w / 2, q3), (p - w / 2, q3)])
            result['boxes'].append(self._add(Polygon(box, facecolor=face, fill=bool(patch_artist),
                                                     edgecolor=box_props.get('edgecolor', 'black'),
                                                     linewidth=box_props.get('linewidth', 1.0), label='_nolegend_')))
            median_color = (medianprops or {}).get('color', 'C1')

            def segment(a, b, color='black', width_pt=1.0):
                (x1, y1), (x2, y2) = orient([a, b])
                return self._add(Line2D([x1, x2], [y1, y2], color=color, linewidth=width_pt, label='_nolegend_'))

            result['medians'].append(segment((p - w / 2, median), (p + w / 2, median), median_color,
                                             (medianprops or {}).get('linewidth', 1.0)))
            result['whiskers'].append(segment((p, q1), (p, low)))
            result['whiskers'].append(segment((p, q3), (p, high)))
            if showcaps is not False:
                result['caps'].append(segment((p - w / 4, low), (p + w / 4, low)))
                result['caps'].append(segment((p - w / 4, high), (p + w / 4, high)))
            outliers = [v for v in values if v < low or v > high]
            if showfliers is not False and outliers:
                fx, fy = zip(*orient([(p, v) for v in outliers]))
                result['fliers'].append(self._add(Line2D(list(fx), list(fy), linestyle='None', marker='o',
                                                         markerfacecolor='none', markeredgecolor='black',
                                                         label='_nolegend_')))
            if showmeans:
                mean = sum(values) / len(values)
                mx, my = orient([(p, mean)])[0]
                result['means'].append(self._add(Line2D([mx], [my], linestyle='None', marker='^', color='C2',
                                                        label='_nolegend_')))
        axis = self.xaxis if vertical else self.yaxis
        if manage_ticks:
            axis.set_ticks(positions, [str(n) for n in names] if names is not None else [str(p) for p in positions])
        return result

    def axhline(self, y=0, xmin=0, xmax=1, **kwargs):
        return self._spanning_line('y', y, xmin, xmax, kwargs)

    def axvline(self, x=0, ymin=0, ymax=1, **kwargs):
        return self._spanning_line('x', x, ymin, ymax, kwargs)

    def _spanning_line(self, along, value, start, end, kwargs):
        from matplotlib.lines import Line2D
        kwargs = _line_kwargs(kwargs)
        kwargs.setdefault('color', 'C0')  # matplotlib's axhline and axvline do not take a colour from the cycle
        if along == 'y':
            line = Line2D([start, end], [value, value], **kwargs)
            line._x_in = 'axes'
        else:
            line = Line2D([value, value], [start, end], **kwargs)
            line._y_in = 'axes'
        return self._add(line)

    def axline(self, xy1, xy2=None, *, slope=None, **kwargs):
        raise NotImplementedError('axline() is not drawn by this sandbox\'s matplotlib; plot the line between two '
                                  'points with plot([x1, x2], [y1, y2])')

    def hlines(self, y, xmin, xmax, colors=None, linestyles='solid', label='', **kwargs):
        from matplotlib.collections import LineCollection
        ys = _data.sequence(y)
        lows = _data.sequence(xmin) if not isinstance(xmin, (int, float)) else [xmin] * len(ys)
        highs = _data.sequence(xmax) if not isinstance(xmax, (int, float)) else [xmax] * len(ys)
        return self._add(LineCollection([[(lows[i], v), (highs[i], v)] for i, v in enumerate(ys)],
                                        color=colors or kwargs.pop('color', 'C0'),
                                        linewidth=kwargs.pop('linewidth', kwargs.pop('lw', 1.5)),
                                        linestyle=linestyles, label=label))

    def vlines(self, x, ymin, ymax, colors=None, linestyles='solid', label='', **kwargs):
        from matplotlib.collections import LineCollection
        xs = _data.sequence(x)
        lows = _data.sequence(ymin) if not isinstance(ymin, (int, float)) else [ymin] * len(xs)
        highs = _data.sequence(ymax) if not isinstance(ymax, (int, float)) else [ymax] * len(xs)
        return self._add(LineCollection([[(v, lows[i]), (v, highs[i])] for i, v in enumerate(xs)],
                                        color=colors or kwargs.pop('color', 'C0'),
                                        linewidth=kwargs.pop('linewidth', kwargs.pop('lw', 1.5)),
                                        linestyle=linestyles, label=label))

    def axhspan(self, ymin, ymax, xmin=0, xmax=1, **kwargs):
        return self._span('y', ymin, ymax, kwargs)

    def axvspan(self, xmin, xmax, ymin=0, ymax=1, **kwargs):
        return self._span('x', xmin, xmax, kwargs)

    def _span(self, along, low, high, kwargs):
        from matplotlib.patches import Span
        color = _pop_color(kwargs)
        kwargs.setdefault('facecolor', color or 'C0')
        return self._add(Span(along, low, high, **kwargs))

    def stem(self, *args, linefmt=None, markerfmt=None, basefmt=None, bottom=0, label=None, orientation='vertical'):
        from matplotlib.container import StemContainer
        x, y = (args[0], args[1]) if len(args) >= 2 else (list(range(len(_data.sequence(args[0])))), args[0])
        xs, ys = _data.sequence(x), _data.sequence(y)
        stems = self.vlines(xs, bottom, ys, colors='C0')
        markers = self.plot(xs, ys, 'o', color='C0', label=label)[0]
        base = self.axhline(bottom, color='C3')
        return StemContainer((markers, stems, base), label=label or '')

    def text(self, x, y, s, fontdict=None, **kwargs):
        from matplotlib.text import Text
        transform = kwargs.pop('transform', None)
        coords = ('axes', 'axes') if transform is not None and getattr(transform, '_coords', None) == 'axes' \
            else ('data', 'data')
        if transform is not None and getattr(transform, '_coords', None) == 'figure':
            return self.figure.text(x, y, s, **dict(fontdict or {}, **kwargs))
        return self._add(Text(x, y, s, coords=coords, **dict(fontdict or {}, **kwargs)))

    def annotate(self, text, xy, xytext=None, xycoords='data', textcoords=None, arrowprops=None,
                 annotation_clip=None, **kwargs):
        from matplotlib.text import Annotation
        if xycoords not in ('data', 'axes fraction'):
            raise NotImplementedError('annotate(xycoords=%r): only "data" and "axes fraction" are placed by this '
                                      'sandbox\'s matplotlib' % (xycoords,))
        textcoords = textcoords or xycoords
        coords = ('axes', 'axes') if xycoords == 'axes fraction' else ('data', 'data')
        annotation = Annotation(text, xy, xytext=None if textcoords in ('offset points', 'offset pixels')
                                else xytext, arrowprops=arrowprops if coords == ('data', 'data') else None,
                                coords=coords, **kwargs)
        if textcoords in ('offset points', 'offset pixels') and xytext is not None:
            annotation._offset = (float(xytext[0]), float(xytext[1]))
        elif textcoords not in ('data', 'axes fraction'):
            raise NotImplementedError('annotate(textcoords=%r): use "data", "axes fraction" or "offset points"'
                                      % (textcoords,))
        return self._add(annotation)

    def imshow(self, X, cmap=None, norm=None, *, aspect=None, interpolation=None, alpha=None, vmin=None, vmax=None,
               origin=None, extent=None, **kwargs):
        from matplotlib.image import AxesImage
        image = AxesImage(X, cmap=cmap, norm=norm, vmin=vmin, vmax=vmax, origin=origin, extent=extent, alpha=alpha)
        self._add(image)
        if aspect in (None, 'equal'):
            self._equal = True
        left, right, bottom, top = image.get_extent()
        if self.xaxis._lim == [None, None]:
            self.set_xlim(left, right)
        if self.yaxis._lim == [None, None]:
            self.set_ylim(bottom, top)
        return image

    matshow = imshow

    contour = _unsupported('contour', 'show a grid of values with imshow(values, cmap=...) and colorbar()')
    contourf = _unsupported('contourf', 'show a grid of values with imshow(values, cmap=...) and colorbar()')
    pcolormesh = _unsupported('pcolormesh', 'show a grid of values with imshow(values, cmap=...) and colorbar()')
    pcolor = _unsupported('pcolor', 'show a grid of values with imshow(values, cmap=...) and colorbar()')
    hexbin = _unsupported('hexbin', 'bin the points yourself and show them with imshow(), or use scatter(alpha=0.3)')
    violinplot = _unsupported('violinplot', 'use boxplot() for the same data')
    quiver = _unsupported('quiver', 'draw arrows with annotate("", xy=..., xytext=..., arrowprops={})')
    streamplot = _unsupported('streamplot', 'draw arrows with annotate()')
    tricontour = _unsupported('tricontour', 'use scatter() with c=values')
    specgram = _unsupported('specgram', 'compute the spectrum yourself and show it with imshow()')
    broken_barh = _unsupported('broken_barh', 'draw each span with barh(y, width, left=start)')
    eventplot = _unsupported('eventplot', 'use vlines() for each event')
    table = _unsupported('table', 'print the table as text, or draw it with text()')
    acorr = _unsupported('acorr', 'compute the correlation yourself and bar() it')
    xcorr = _unsupported('xcorr', 'compute the correlation yourself and bar() it')
    psd = _unsupported('psd', 'compute the spectrum yourself and plot() it')
    inset_axes = _unsupported('inset_axes', 'use fig.add_axes([left, bottom, width, height])')

