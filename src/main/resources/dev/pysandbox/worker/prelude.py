# Runs once in every fresh context, before any user code. It defines how user code is run and reported:
# CPython-like tracebacks on stderr, sys.exit() semantics, and the `result` variable turned into JSON.
# This is convenience, not security: user code can reach and alter all of it, but only in its own context.
#
# Heavy modules (traceback, linecache, json) are imported only when a call needs them: this file runs for
# every fresh context, so whatever it imports up front is paid on every call.
#
# It also installs the policy layers that live in Python: the import policy, neutered host surfaces and the
# optional strict profile. They make the sandbox's rules visible early and clearly; they are not the
# boundary (the context settings and the worker process are), so a way around them still reaches nothing.

def _make_runner(allowed_imports, strict, preload, packages, auto_install, ucd):
    """allowed_imports: '*' for no import checks, else comma-separated module names (packages include
    their submodules). strict: forbid naming eval, exec, open and the other introspection builtins.
    preload: comma-separated modules to import now, before any user code, so calls find them loaded.
    packages: where the operator's installed packages are mounted read-only, or '' if none are.
    auto_install: comma-separated modules the server installs when code imports them missing.
    ucd: the worker's function answering the unicodedata lookups GraalPy leaves to a native module."""
    import sys, os, posix, builtins, _signal

    # After the standard library, so that a package cannot shadow a standard module.
    if packages:
        sys.path.append(packages)

    # The prelude's own lazy imports must not go through the import guard installed below: its functions
    # live in __main__, exactly where the guard looks for user code.
    load = builtins.__import__

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

    def describe_result(limit, before, code):
        """(json_text, is_repr, truncated) for `result`, or None when this call set none. In a session the
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
                    return (text, False, False)
            shown = repr(value)
        except BaseException as e:  # a hostile __repr__ must not take the report down with it
            shown = '<result could not be shown: %s>' % type(e).__name__
        truncated = len(shown) > limit
        if truncated:
            shown = shown[:limit]
        return (json.dumps(shown), True, truncated)

    home = sys.prefix.rstrip('/') + '/'

    def tidy(report, seen):
        """Drops the sandbox's own frames (the import guard, the strict check) and shows standard library
        files as <stdlib>/..., so a traceback names no host path. Follows chained exceptions too."""
        if report is None or id(report) in seen:
            return
        seen.add(id(report))
        frames = []
        for frame in report.stack:
            if frame.filename == '<sandbox-prelude>':
                continue
            if frame.filename.startswith(home):
                frame.filename = '<stdlib>/' + frame.filename[len(home):].split('/', 2)[-1]
            frames.append(frame)
        report.stack = traceback_module().StackSummary.from_list(frames)
        tidy(report.__cause__, seen)
        tidy(report.__context__, seen)

    def traceback_module():
        return load('traceback')

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

    # Scratch files. CPython closes `open('out.txt', 'w').write(text)` the moment the file object is dropped;
    # GraalPy only when its garbage collector gets to it, so the text sat in the object's buffer: a later
    # open() read an empty file and the call's answer returned one. Files opened for writing are remembered
    # (weakly) and flushed before the next open() and when the call ends.
    import _io, io, _weakref
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

    # The standard library's folder holds GraalPy's native modules (pyexpat, _bz2, _sqlite3 ...), which the
    # sandbox refuses to load: finding one ended an import with a SystemError about native modules instead of
    # the ImportError code expects (`try: import bz2 except ImportError`). Files are searched for Python
    # sources only.
    machinery = sys.modules['_frozen_importlib_external']
    python_files = machinery.FileFinder.path_hook(
        (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES),
        (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES))
    sys.path_hooks[:] = [python_files if getattr(hook, '__name__', '') == 'path_hook_for_FileFinder' else hook
                         for hook in sys.path_hooks]
    sys.path_importer_cache.clear()

    def flush():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        flush_written()
        written_files.clear()

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


    class _HardExit(SystemExit):
        """os._exit() under the CONSTRAINED policy kills the calling thread with an uncatchable host error
        and loses the status; raising this instead keeps the status the caller asked for."""

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

    def hard_exit(status):
        raise _HardExit(status)

    os._exit = posix._exit = hard_exit

    def refused(what):
        def refuse(*args, **kwargs):
            raise PermissionError('%s is not available in this sandbox' % what)
        return refuse

    # Signals reach the worker JVM's own process (raise_signal(SIGTERM) killed it before -Xrs; handlers
    # and alarms still change process-wide state). The stubs keep `import signal` working.
    for name in ('signal', 'raise_signal', 'alarm', 'setitimer', 'siginterrupt', 'set_wakeup_fd',
                 'pthread_kill', 'pthread_sigmask', 'sigwait', 'sigwaitinfo', 'sigtimedwait'):
        if hasattr(_signal, name):
            setattr(_signal, name, refused('signal.' + name))

    # Facts about the host that code has no need for: answer neutral values (stdlib modules such as uuid
    # call uname() at import, so refusing would break them).
    def constant(value):
        return lambda *args, **kwargs: value
    neutral = {
        'getpid': 2, 'getppid': 1, 'getuid': 65534, 'geteuid': 65534, 'getgid': 65534, 'getegid': 65534,
        'getgroups': [], 'getlogin': 'sandbox', 'cpu_count': 1,
        'uname': os.uname_result(('Linux', 'sandbox', '', '', '')),
    }
    for module in (os, posix):
        for name, value in neutral.items():
            if hasattr(module, name):
                setattr(module, name, constant(value))
        for name in ('getloadavg', 'times', 'sched_getaffinity', 'getresuid', 'getresgid', 'ctermid', 'ttyname'):
            if hasattr(module, name):
                setattr(module, name, refused('os.' + name))
    # The context sees no environment, so os.path.expanduser('~') asks pwd.getpwuid(), which the interpreter
    # refuses with a host error no `except` catches: that ended every call that imported sysconfig (and so
    # zoneinfo), site or getpass. A neutral user, and the scratch working directory as home, in this
    # context's own copy of the environment. (os.getcwd() needs no stand-in: the context's file system
    # answers it with the scratch working directory.)
    os.environ.setdefault('HOME', '/home/sandbox')
    os.environ.setdefault('USER', 'sandbox')

    # Gateways to the host and to process creation. None in sys.modules makes any later import of them
    # fail, whoever asks. (polyglot stays: GraalPy's datetime needs it; the context refuses polyglot access
    # anyway, and the import policy keeps user code from importing it.)
    for name in ('java', '_posixsubprocess', '_ctypes', 'ctypes'):
        sys.modules[name] = None

    # GraalPy ships no expat parser, so xml.etree.ElementTree built and serialized trees but failed to parse
    # text with "No module named expat; use SimpleXMLTreeBuilder instead", which points nowhere. A finder
    # placed last (a real pyexpat, should one ship, is still found first) gives a stand-in whose parser says
    # what is missing.
    class NoExpat:
        message = ('XML parsing is not available in this sandbox: GraalPy has no expat parser; '
                   'xml.etree.ElementTree can still build, search and serialize trees')

        @classmethod
        def find_spec(cls, name, path=None, target=None):
            return sys.modules['_frozen_importlib'].spec_from_loader(name, cls) if name == 'pyexpat' else None

        @staticmethod
        def create_module(spec):
            return None

        @classmethod
        def exec_module(cls, module):
            class ExpatError(Exception):
                pass

            def ParserCreate(*args, **kwargs):
                raise NotImplementedError(cls.message)

            module.ParserCreate = ParserCreate
            module.ExpatError = module.error = ExpatError
            module.model = type(sys)('pyexpat.model')
            module.errors = type(sys)('pyexpat.errors')

    sys.meta_path.append(NoExpat)

    # The context refuses sockets with a host error that `except` cannot catch, so a library that merely
    # probes for the network (urllib3 does at import) ended the whole call. When `_socket` is first imported,
    # its socket type and its lookups are swapped for ones that raise PermissionError, an OSError as on a
    # host without a network. The interpreter still refuses the real thing.
    class NoNetwork:
        message = 'network access is not available in this sandbox'
        harmless = frozenset(('error', 'gaierror', 'herror', 'timeout', 'htonl', 'htons', 'ntohl', 'ntohs',
                              'inet_aton', 'inet_ntoa', 'inet_pton', 'inet_ntop', 'getdefaulttimeout',
                              'setdefaulttimeout'))

        @classmethod
        def refuse(cls, what):
            def refuse(*args, **kwargs):
                raise PermissionError('%s: %s' % (what, cls.message))
            return refuse

        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if name != '_socket':
                return None
            spec = sys.modules['_frozen_importlib'].BuiltinImporter.find_spec(name)
            if spec is not None:
                spec.loader = cls
            return spec

        @staticmethod
        def create_module(spec):
            return sys.modules['_frozen_importlib'].BuiltinImporter.create_module(spec)

        @classmethod
        def exec_module(cls, module):
            sys.modules['_frozen_importlib'].BuiltinImporter.exec_module(module)

            class socket(module.socket):
                __slots__ = ()

                def __new__(kind, *args, **kwargs):
                    raise PermissionError('socket.socket: ' + cls.message)

            socket.__module__ = '_socket'
            for name in dir(module):
                value = getattr(module, name)
                if callable(value) and not name.startswith('__') and not name.isupper() \
                        and name not in cls.harmless and not isinstance(value, type):
                    setattr(module, name, cls.refuse('socket.' + name))
            module.socket = module.SocketType = socket
            module.gethostname = constant('sandbox')

    sys.meta_path.insert(0, NoNetwork)

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

    # Well-known packages built on C, C++ or Rust extensions: the sandbox refuses native code, so no install
    # can make them work, and the message says so instead of "not installed".
    needs_native = frozenset(('numpy', 'pandas', 'scipy', 'pydantic', 'pydantic_core', 'regex', 'lxml',
                              'matplotlib', 'sklearn', 'torch', 'cryptography', 'psutil', 'orjson', 'ujson',
                              'pyarrow', 'polars'))

    if allowed_imports != '*':
        allowed = frozenset(allowed_imports.split(','))
        listing = ', '.join(sorted(allowed))

        def permitted(module):
            while module:
                if module in allowed:
                    return True
                module = module.rpartition('.')[0]
            return False

        def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
            # Only imports in user code are checked: the stdlib's own imports come with their module's
            # globals, and checking them would break the very modules the policy allows. Imports with no
            # globals pass too: GraalPy's builtin modules import their helpers that way (time imports
            # _polyglot_time), so __import__('os') called bare gets around this layer, and still reaches
            # only what the interpreter's settings allow.
            from_user = isinstance(globals, dict) and globals.get('__name__') == '__main__' and level == 0
            top = name.partition('.')[0]
            if from_user and top in needs_native:
                raise ImportError("'%s' needs native code, which this sandbox cannot run: only pure-Python"
                                  " packages can be installed" % top, name=name)
            if from_user and not permitted(name) and not (
                    fromlist and all(f != '*' and permitted(name + '.' + f) for f in fromlist)):
                raise ImportError("import of '%s' is not allowed in this sandbox; allowed modules: %s"
                                  % (name, listing), name=name)
            try:
                return load(name, globals, locals, fromlist, level)
            except ModuleNotFoundError as e:
                if from_user and e.name == top and top in installable:
                    if top not in installing:
                        installing.append(top)
                    raise ModuleNotFoundError("'%s' is not installed yet: the server is installing the package"
                                              " that provides it; retry in a few seconds" % top, name=top) from None
                if from_user and e.name == top and top not in sys.stdlib_module_names:
                    raise ModuleNotFoundError("'%s' is allowed but not installed in this sandbox; the operator"
                                              " can install the package that provides it with"
                                              " bin/python-sandbox-mcp install" % top, name=top) from None
                raise

        builtins.__import__ = guarded_import

    # Modules this call found missing that the server will install (packages.auto-install): the runner
    # reports them, and the server starts the install while the call fails fast.
    installable = frozenset(auto_install.split(',')) if auto_install else frozenset()
    installing = []

    forbidden_names = frozenset(('eval', 'exec', 'compile', 'open', '__import__', 'globals', 'locals',
                                 'getattr', 'setattr', 'delattr', 'breakpoint', 'vars', '__builtins__'))

    def check_strict(source, filename):
        """Strict profile: user code may not name the builtins that reach around the rules. Removing them
        from builtins outright would also break every import statement, which needs __import__."""
        ast = load('ast')
        for node in ast.walk(ast.parse(source, filename)):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in forbidden_names:
                raise PermissionError("'%s' is not allowed in the strict sandbox profile (line %d)"
                                      % (name, node.lineno))

    def run(source, filename, result_limit, module=None):
        """Runs user code in __main__: the module the worker parsed from it if given, else compiled here.
        Returns (exit_code, error_message, result_description); the modules this call found missing that
        the server will install are in run.installing."""
        installing.clear()
        before = main_globals.get('result', missing)
        code = None
        try:
            try:
                if strict:
                    check_strict(source, filename)
                if module is None:
                    code = compile(source, filename, 'exec')
                    exec(code, main_globals)
                else:
                    module()
            except any_exit as e:
                status, message = exit_status(e)
                return (status, message, describe_result(result_limit, before, code))
            except BaseException as e:
                # Skip this function's own frame, so the traceback starts at the user's code.
                tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
                return (1, report_exception(e, tb, source, filename), describe_result(result_limit, before, code))
            return (0, None, describe_result(result_limit, before, code))
        except BaseException as e:
            # Reporting itself failed: the guest broke something the report needs (json, say). Say so
            # plainly instead of letting it look like a sandbox refusal.
            return (1, 'The result could not be reported: %s' % type(e).__name__, None)
        finally:
            flush()

    # Imported here, while the worker is idle, instead of in the call that needs them. Each context is new, so
    # these modules' state is this call's own. The worker checked them against the import policy.
    for name in preload.split(',') if preload else ():
        try:
            load(name)
        except BaseException:
            pass  # the call that imports it meets the same failure, reported as Python reports it

    run.flush = flush
    run.installing = installing
    return run

globals().pop("_make_runner")
