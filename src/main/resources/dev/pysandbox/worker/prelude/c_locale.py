# The locale: the C locale, the only one the sandbox offers.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_c_locale(sys, _locale):
    # CPython starts in the C locale when the environment names none (the context's is empty):
    # GraalPy answered the worker JVM's locale (en_US, grouping thousands with ',') and ignored
    # setlocale('C'). Only the C locale is offered; setting another raises locale.Error, as on a host where
    # it is not installed.
    c_conventions = {'int_curr_symbol': '', 'currency_symbol': '', 'mon_decimal_point': '',
                     'mon_thousands_sep': '', 'mon_grouping': [], 'positive_sign': '', 'negative_sign': '',
                     'int_frac_digits': 127, 'frac_digits': 127, 'p_cs_precedes': 127, 'p_sep_by_space': 127,
                     'n_cs_precedes': 127, 'n_sep_by_space': 127, 'p_sign_posn': 127, 'n_sign_posn': 127,
                     'decimal_point': '.', 'thousands_sep': '', 'grouping': []}
    c_names = ('C', 'POSIX', 'C.UTF-8', 'C.utf8')
    current_locale = ['C']

    def setlocale(category, locale=None):
        if locale is not None:
            if locale not in c_names and locale != '':
                raise _locale.Error('unsupported locale setting')
            current_locale[0] = locale or 'C'
        return current_locale[0]

    _locale.setlocale = setlocale
    _locale.localeconv = lambda: {key: list(value) if type(value) is list else value
                                  for key, value in c_conventions.items()}
    loaded = sys.modules.get('locale')
    if loaded is not None:
        loaded._setlocale, loaded._localeconv = setlocale, _locale.localeconv
