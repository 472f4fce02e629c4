# _bz2: the codec of the bz2 module, which GraalPy leaves to the native libbz2, answered through the worker.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_bz2_codec(made_on_import, codec):
    """made_on_import(name, define): makes a module the interpreter lacks when it is first imported (finders.py).
    codec: the worker's bz2 codec (Bzip2Codec.java); bytes cross it as Latin-1 text."""
    # Without native access GraalPy drops its _bz2, so `import bz2` failed. _bz2 is made from the worker's
    # codec instead: bz2.compress, decompress, open and BZ2File, and tarfile's "w:bz2", then work as on CPython.
    def latin1(data):
        return bytes(memoryview(data)).decode('latin-1')

    def define(module):
        class BZ2Compressor:
            """Create a compressor object for compressing data incrementally."""

            def __init__(self, compresslevel=9, /):
                if not isinstance(compresslevel, int) or not 1 <= compresslevel <= 9:
                    raise ValueError('compresslevel must be between 1 and 9')
                self._codec, self._flushed = codec('compressor', compresslevel), False

            def compress(self, data, /):
                if self._flushed:
                    raise ValueError('Compressor has been flushed')
                return self._codec.compress(latin1(data)).encode('latin-1')

            def flush(self):
                if self._flushed:
                    raise ValueError('Repeated call to flush()')
                self._flushed = True
                return self._codec.flush().encode('latin-1')

        class BZ2Decompressor:
            """Create a decompressor object for decompressing data incrementally."""

            def __init__(self):
                self._codec = codec('decompressor')
                self.eof, self.unused_data, self.needs_input = False, b'', True

            def decompress(self, data, /, max_length=-1):
                if self.eof:
                    raise EOFError('End of stream already reached')
                status, output, unused = self._codec.decompress(latin1(data), max_length)
                if status == 'invalid':
                    raise OSError('Invalid data stream')
                self.eof = status == 'end'
                self.needs_input = status == 'input'
                if self.eof:
                    self.unused_data, self._codec = unused.encode('latin-1'), None
                return output.encode('latin-1')

        BZ2Compressor.__module__ = BZ2Decompressor.__module__ = '_bz2'
        module.BZ2Compressor, module.BZ2Decompressor = BZ2Compressor, BZ2Decompressor

    made_on_import('_bz2', define)
