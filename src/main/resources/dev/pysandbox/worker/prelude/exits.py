# Exit semantics: sys.exit(), SystemExit and os._exit() as CPython has them, and what an exit reports.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_exits(sys, os, posix, builtins):
    """Returns (any_exit, exit_status): the class every exit raises (the original SystemExit), and
    exit_status(exc), the (status, message) an exit reports."""

    def exit_status(exc):
        # Mirrors CPython: None -> 0, int -> that code, anything else is printed and means 1.
        code = exc.code
        if code is None:
            return 0, None
        if isinstance(code, int) and not isinstance(code, bool):
            return code, None
        try:
            print(code, file=sys.stderr)
            return 1, str(code)
        except BaseException:  # a hostile __str__
            return 1, 'exited with an exit value that could not be shown'


    # A fresh context runs user code as a module the worker parsed (shared code, see SharedCode.java).
    # GraalPy ends the whole context when a SystemExit whose code is an int or None escapes such a module,
    # before this runner can flush the output still in Python's buffers or report `result`. It reads the
    # code the exception was built with, not the attribute: so sys.exit() and the name SystemExit (which
    # `raise SystemExit` looks up, in user code and the stdlib alike) give this subclass, built with a
    # neutral marker and answering the real code and args to everyone who asks.
    any_exit = builtins.SystemExit
    exit_marker = object()

    class _SystemExit(any_exit):
        def __init__(self, *args):
            super().__init__(exit_marker)
            self._args = args

        @property
        def code(self):
            args = self._args
            return None if not args else args[0] if len(args) == 1 else args

        @property
        def args(self):
            return self._args

        def __str__(self):
            args = self._args
            return '' if not args else str(args[0]) if len(args) == 1 else str(args)

        def __repr__(self):
            args = self._args
            return 'SystemExit(%s)' % (repr(args[0]) if len(args) == 1 else ', '.join(map(repr, args)))

    _SystemExit.__name__ = _SystemExit.__qualname__ = 'SystemExit'
    _SystemExit.__module__ = 'builtins'
    builtins.SystemExit = _SystemExit

    def sys_exit(*args):
        if len(args) > 1:
            raise TypeError('exit expected at most 1 argument, got %d' % len(args))
        raise _SystemExit(*args)

    sys.exit = sys_exit

    class _HardExit(_SystemExit):
        """os._exit() under the CONSTRAINED policy kills the calling thread with an uncatchable host error
        and loses the status; raising this instead keeps the status the caller asked for. Built like
        _SystemExit: GraalPy 25.2 turns an int-coded exit escaping the module into a host error too."""

    def hard_exit(status):
        raise _HardExit(status)

    os._exit = posix._exit = hard_exit
    return any_exit, exit_status
