# unicodedata completed: what GraalPy leaves to a native module, answered through the worker.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_unicode_data(sys, load, ucd):
    """ucd: the worker's function answering the unicodedata lookups GraalPy leaves to a native module."""
    # GraalPy's unicodedata answers name(), category() and normalize() itself but leaves lookup(), numeric(),
    # decomposition(), east_asian_width() and others to a native module the sandbox cannot load, and has no
    # ucd_3_2_0, so the 'idna' codec (stringprep) was unknown. Those functions are answered from the Unicode
    # tables through the worker (UnicodeData.java), and ucd_3_2_0 is the current data under the old name.
    # GraalPy imports unicodedata while it starts, so this costs a fresh context nothing.
    def complete_unicodedata(module):
        missing = object()

        def code(function, chr):
            if type(chr) is not str or len(chr) != 1:
                raise TypeError('%s() argument must be a unicode character, not %s'
                                % (function, type(chr).__name__))
            return ord(chr)

        def numeric(chr, default=missing):
            value = float(ucd('numeric', code('numeric', chr)))
            if value != value:
                if default is missing:
                    raise ValueError('not a numeric character')
                return default
            return value

        def whole(function, message):
            def lookup(chr, default=missing):
                value = int(ucd(function, code(function, chr)))
                if value < 0:
                    if default is missing:
                        raise ValueError(message)
                    return default
                return value
            lookup.__name__ = function
            return lookup

        def lookup(name):
            if not isinstance(name, str):
                raise TypeError('lookup() argument must be str, not %s' % type(name).__name__)
            found = str(ucd('lookup', name))
            if not found:
                raise KeyError("undefined character name '%s'" % name)
            return found

        module.numeric = numeric
        module.decimal = whole('decimal', 'not a decimal')
        module.digit = whole('digit', 'not a digit')
        module.lookup = lookup
        module.decomposition = lambda chr: str(ucd('decomposition', code('decomposition', chr)))
        module.east_asian_width = lambda chr: str(ucd('east_asian_width', code('east_asian_width', chr)))
        module.combining = lambda chr: int(ucd('combining', code('combining', chr)))
        module.mirrored = lambda chr: int(ucd('mirrored', code('mirrored', chr)))
        old = type(sys)('unicodedata.ucd_3_2_0')
        for name in dir(module):
            if not name.startswith('_') and callable(getattr(module, name)):
                setattr(old, name, getattr(module, name))
        old.unidata_version = '3.2.0'
        module.ucd_3_2_0 = old

    complete_unicodedata(load('unicodedata'))
