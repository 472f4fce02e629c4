# Runs once in every fresh context, before any user code. It defines how user code is run and reported:
# CPython-like tracebacks on stderr, sys.exit() semantics, and the `result` variable turned into JSON.
# This is convenience, not security: user code can reach and alter all of it, but only in its own context.
#
# Heavy modules (traceback, linecache, json) are imported only when a call needs them: this file runs for
# every fresh context, so whatever it imports up front is paid on every call.

def _make_runner():
    import sys, os, posix

    main_globals = sys.modules['__main__'].__dict__
    missing = object()
    infinity = float('inf')

    def jsonable(value, depth=0):
        if depth > 100:
            return False
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is str:
            return True
        if kind is float:
            return value == value and value != infinity and value != -infinity
        if kind is list:
            return all(jsonable(item, depth + 1) for item in value)
        if kind is dict:
            return all(type(k) is str and jsonable(v, depth + 1) for k, v in value.items())
        return False

    def describe_result(limit):
        """(json_text, is_repr, truncated) for `result`, or None when the code set no `result`."""
        value = main_globals.get('result', missing)
        if value is missing:
            return None
        import json
        try:
            if jsonable(value):
                text = json.dumps(value)
                if len(text) <= limit:
                    return (text, False, False)
            shown = repr(value)
        except BaseException as e:  # a hostile __repr__ must not take the report down with it
            shown = '<result could not be shown: %s>' % type(e).__name__
        truncated = len(shown) > limit
        if truncated:
            shown = shown[:limit]
        return (json.dumps(shown), True, truncated)

    def report_exception(exc, tb, source, filename):
        try:
            import linecache, traceback
            # Lets the traceback show the offending source lines, as CPython does for a file.
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            traceback.print_exception(type(exc), exc, tb, file=sys.stderr)
        except BaseException:
            pass
        text = str(exc)
        return '%s: %s' % (type(exc).__name__, text) if text else type(exc).__name__

    def flush():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass

    def exit_status(exc):
        # Mirrors CPython: None -> 0, int -> that code, anything else is printed and means 1.
        code = exc.code
        if code is None:
            return 0, None
        if isinstance(code, int) and not isinstance(code, bool):
            return code, None
        try:
            print(code, file=sys.stderr)
        except BaseException:
            pass
        return 1, str(code)

    class _HardExit(SystemExit):
        """os._exit() under the CONSTRAINED policy kills the calling thread with an uncatchable host error
        and loses the status; raising this instead keeps the status the caller asked for."""

    def hard_exit(status):
        raise _HardExit(status)

    os._exit = posix._exit = hard_exit

    def run(source, filename, result_limit):
        """Runs user code in __main__; returns (exit_code, error_message, result_description)."""
        try:
            try:
                code = compile(source, filename, 'exec')
                exec(code, main_globals)
            except SystemExit as e:
                status, message = exit_status(e)
                return (status, message, describe_result(result_limit))
            except BaseException as e:
                # Skip this function's own frame, so the traceback starts at the user's code.
                tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
                return (1, report_exception(e, tb, source, filename), describe_result(result_limit))
            return (0, None, describe_result(result_limit))
        finally:
            flush()

    run.flush = flush
    return run

globals().pop("_make_runner")()
