# lzma's decompressor tells data in neither of its formats apart, as liblzma does.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_lzma_format(after_import):
    """after_import(name, patch): has patch(module) called when the module `name` has run (finders.py)."""
    # GraalPy's decompressor, told to detect the format (the default), took data in neither format for an
    # empty stream, ended, with all of it unused: tarfile.open() of a plain tar, which tries each compression
    # in turn, fed the data to xz again and again until the worker ran out of memory. liblzma accepts xz's
    # magic bytes or a .lzma header it finds plausible (its "picky" rules, copied below), and raises
    # LZMAError for anything else; so does this decompressor now. Data too short to tell is left to GraalPy.
    xz_magic = b'\xfd7zXZ\x00'

    def plausible(head):
        if head.startswith(xz_magic) or (len(head) < len(xz_magic) and xz_magic.startswith(head)):
            return True
        if len(head) < 13:
            return True
        if head[0] > (4 * 5 + 4) * 9 + 8:  # lc, lp and pb packed into one byte
            return False
        dictionary = int.from_bytes(head[1:5], 'little')
        if dictionary != 0xFFFFFFFF:  # 2**n or 2**n + 2**(n-1), as liblzma rounds it
            rounded = (dictionary - 1) & 0xFFFFFFFF
            for shift in (2, 3, 4, 8, 16):
                rounded |= rounded >> shift
            if (rounded + 1) & 0xFFFFFFFF != dictionary:
                return False
        size = int.from_bytes(head[5:13], 'little')
        return size == 0xFFFFFFFFFFFFFFFF or size < 1 << 38

    def check_formats(lzma):
        plain = lzma.LZMADecompressor

        class LZMADecompressor:
            __doc__ = plain.__doc__

            def __init__(self, format=lzma.FORMAT_AUTO, memlimit=None, filters=None):
                self._plain, self._checking = plain(format, memlimit, filters), format == lzma.FORMAT_AUTO

            def decompress(self, data, max_length=-1):
                if self._checking and len(data):
                    self._checking = False
                    if not plausible(bytes(memoryview(data)[:13])):
                        raise lzma.LZMAError('Input format not supported by decoder')
                return self._plain.decompress(data, max_length)

            eof = property(lambda self: self._plain.eof)
            unused_data = property(lambda self: self._plain.unused_data)
            needs_input = property(lambda self: self._plain.needs_input)
            check = property(lambda self: self._plain.check)

        LZMADecompressor.__module__ = 'lzma'
        lzma.LZMADecompressor = LZMADecompressor

    after_import('lzma', check_formats)
