"""How this package says it does not draw something: NotImplementedError naming the call and what to use instead,
never a silent stand-in that draws something else."""

WHAT_IT_DRAWS = ('it draws plot, scatter, bar, barh, hist, pie, fill_between, errorbar, '
                 'boxplot, axhline/axvline, text, annotate and imshow with colorbar (README.md, "Charts")')


def refusing(owner, name, instead=None):
    """A callable that raises NotImplementedError for `owner.name(...)`, saying what to use instead."""
    def refuse(*args, **kwargs):
        raise NotImplementedError('%s.%s() is not drawn by this sandbox\'s matplotlib; %s'
                                  % (owner, name, instead or WHAT_IT_DRAWS))
    refuse.__name__ = refuse.__qualname__ = name
    return refuse
