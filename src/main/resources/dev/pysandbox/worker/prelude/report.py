# What a call reports: `result` as JSON, and a CPython-like traceback on stderr without the sandbox's frames.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).
# Heavy modules (traceback, linecache, json) are imported only when a call needs them: the prelude runs in
# every fresh context, so whatever it imports up front is paid on every call.

def install_report(sys, load, main_globals, prelude_names, namespace):
    """prelude_names: the file names of the prelude's code, whose frames a traceback leaves out.
    namespace: the type of the records handed to the worker (types.SimpleNamespace).
    Returns (result_now, describe_result, report_exception)."""
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

    def result_now():
        """The `result` variable as it stands, to compare with after the call (describe_result's before)."""
        return main_globals.get('result', missing)

    def describe_result(limit, before, code):
        """namespace(json, is_repr, truncated) for `result`, or None when this call set none. In a session the
        variable outlives the call that set it, so it is reported only if this call's code names it at top
        level or its value changed."""
        value = main_globals.get('result', missing)
        if value is missing or (value is before and 'result' not in getattr(code, 'co_names', ())):
            return None
        json = load('json')
        try:
            if jsonable(value):
                text = json.dumps(value)
                if len(text) <= limit:
                    return namespace(json=text, is_repr=False, truncated=False)
            shown = repr(value)
        except BaseException as e:  # a hostile __repr__ must not take the report down with it
            shown = '<result could not be shown: %s>' % type(e).__name__
        truncated = len(shown) > limit
        if truncated:
            shown = shown[:limit]
        return namespace(json=json.dumps(shown), is_repr=True, truncated=truncated)

    home = sys.prefix.rstrip('/') + '/'

    def tidy(report, seen):
        """Drops the sandbox's own frames (the import guard, the strict check) and shows standard library
        files as <stdlib>/..., so a traceback names no host path. Follows chained exceptions too."""
        if report is None or id(report) in seen:
            return
        seen.add(id(report))
        frames = []
        for frame in report.stack:
            if frame.filename in prelude_names:
                continue
            if frame.filename.startswith(home):
                frame.filename = '<stdlib>/' + frame.filename[len(home):].split('/', 2)[-1]
            frames.append(frame)
        report.stack = load('traceback').StackSummary.from_list(frames)
        tidy(report.__cause__, seen)
        tidy(report.__context__, seen)

    def report_exception(exc, tb, source, filename):
        try:
            linecache, traceback = load('linecache'), load('traceback')
            # Lets the traceback show the offending source lines, as CPython does for a file.
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            report = traceback.TracebackException(type(exc), exc, tb)
            tidy(report, set())
            sys.stderr.write(''.join(report.format()))
        except BaseException:
            pass
        try:
            text = str(exc)
        except BaseException:  # a hostile __str__
            text = '<the exception could not be shown>'
        return '%s: %s' % (type(exc).__name__, text) if text else type(exc).__name__

    return result_now, describe_result, report_exception
