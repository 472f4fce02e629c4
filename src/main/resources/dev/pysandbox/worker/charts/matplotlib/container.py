"""What bar() and errorbar() return: the bars (Rectangles) as a list, with matplotlib's attributes."""


class Container(tuple):
    def __new__(cls, items, *args, **kwargs):
        return tuple.__new__(cls, items)

    def get_label(self):
        return self._label

    def set_label(self, label):
        self._label = label

    def remove(self):
        for item in self:
            if hasattr(item, 'remove'):
                item.remove()


class BarContainer(Container):
    def __init__(self, patches, errorbar=None, *, datavalues=None, orientation='vertical', label=''):
        self.patches = list(patches)
        self.errorbar = errorbar
        self.datavalues = datavalues
        self.orientation = orientation
        self._label = label


class ErrorbarContainer(Container):
    def __init__(self, lines, has_xerr=False, has_yerr=False, label=''):
        self.lines = lines
        self.has_xerr, self.has_yerr = has_xerr, has_yerr
        self._label = label


class StemContainer(Container):
    def __init__(self, lines, label=''):
        self.markerline, self.stemlines, self.baseline = lines
        self._label = label
