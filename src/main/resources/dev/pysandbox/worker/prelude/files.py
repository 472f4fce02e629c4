# Scratch files and the end of a call: open() tracking, and flush().
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_files(sys, builtins, _io, io, _weakref):
    """Returns flush(): the call's output streams and the files it opened for writing, flushed."""
    # CPython closes `open('out.txt', 'w').write(text)` the moment the file object is dropped; GraalPy only
    # when its garbage collector gets to it, so the text sat in the object's buffer: a later open() read an
    # empty file and the call's answer returned one. Files opened for writing are remembered (weakly) and
    # flushed before the next open() and when the call ends.
    plain_open = _io.open
    written_files = []

    def flush_written():
        for ref in written_files:
            opened = ref()
            try:
                if opened is not None and not opened.closed:
                    opened.flush()
            except BaseException:
                pass

    def tracking_open(file, mode='r', *args, **kwargs):
        if written_files:
            flush_written()
            written_files[:] = [ref for ref in written_files if ref() is not None]
        opened = plain_open(file, mode, *args, **kwargs)
        if isinstance(mode, str) and ('w' in mode or 'a' in mode or 'x' in mode or '+' in mode):
            written_files.append(_weakref.ref(opened))
        return opened

    tracking_open.__name__ = tracking_open.__qualname__ = 'open'
    tracking_open.__doc__ = plain_open.__doc__
    builtins.open = io.open = _io.open = tracking_open

    def flush():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        flush_written()
        written_files.clear()

    return flush
