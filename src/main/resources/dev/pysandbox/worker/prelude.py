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

def _make_runner(import_rule, strict, preload, packages, auto_install, ucd, tools):
    """import_rule: the worker's import rule, called (name, fromlist) and answering the refusal's text or ''
    (ImportRule.java); None for the unrestricted profile, which checks no import.
    strict: forbid naming eval, exec, open and the other introspection builtins.
    preload: comma-separated modules to import now, before any user code, so calls find them loaded.
    packages: where the operator's installed packages are mounted read-only, or '' if none are.
    auto_install: comma-separated modules the server installs when code imports them missing.
    ucd: the worker's function answering the unicodedata lookups GraalPy leaves to a native module.
    tools: the worker's bridge to the operator's other MCP tools (code mode), called (op, tool, params_json)."""
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

    # Code mode: `context.inputs`, and `context.tools`, the operator's other MCP tools. Every request goes to
    # the supervisor through `tools`, which enforces the allow-list, the budget and the parameter limits; the
    # checks here only make mistakes fail early and clearly (a set in the parameters, a non-dict).
    class ToolError(Exception):
        """A tool of another MCP server could not be called, or answered with an error.
        .kind: not_configured, not_allowed, invalid_params, limit_exceeded, timeout, server_unavailable,
        tool_error, protocol_error or result_too_large; .tool: the tool's name; .message: what happened;
        .result: the tool's own answer (tool_error only)."""

        def __init__(self, kind, tool, message, result=None):
            super().__init__(kind, tool, message)
            self.kind, self.tool, self.message, self.result = kind, tool, message, result

        def __str__(self):
            return '[%s] %s: %s' % (self.kind, self.tool or '-', self.message)

    ToolError.__module__ = 'builtins'
    ToolError.__qualname__ = 'ToolError'
    builtins.ToolError = ToolError

    def tool_request(op, name, params_text=None):
        reply = load('json').loads(tools(op, name, params_text))
        if reply.get('ok'):
            return reply.get('value')
        error = reply.get('error') or {}
        raise ToolError(error.get('kind', 'protocol_error'), error.get('tool', name), error.get('message', ''),
                        error.get('result'))

    def non_json(value, path, depth=0):
        """Where `value` holds something JSON cannot carry, e.g. "params['when'] is datetime"; None if nowhere."""
        if depth > 64:
            return '%s is nested more than 64 levels deep' % path
        kind = type(value)
        if value is None or kind is bool or kind is str or isinstance(value, int):
            return None
        if kind is float:
            return None if value == value and value != infinity and value != -infinity else '%s is %r' % (path, value)
        if isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                found = non_json(item, '%s[%d]' % (path, index), depth + 1)
                if found:
                    return found
            return None
        if isinstance(value, dict):
            for key, item in value.items():
                if type(key) is not str:
                    return '%s has a key of type %s; JSON keys are strings' % (path, type(key).__name__)
                found = non_json(item, '%s[%r]' % (path, key), depth + 1)
                if found:
                    return found
            return None
        return '%s is %s, which is not JSON' % (path, kind.__name__)

    def sanitize(name):
        """A tool's name as a Python identifier: `get-sum` -> get_sum, `2fa` -> _2fa, `class` -> class_."""
        ident = ''.join(c if c.isalnum() and c.isascii() or c == '_' else '_' for c in name) or '_'
        if ident[0].isdigit():
            ident = '_' + ident
        return ident + '_' if load('keyword').iskeyword(ident) else ident

    # The API behind context.tools is built when code first uses it: most calls never do, and every class
    # defined here is paid by every fresh context (measured with bench/context-cost's probe).
    api = []

    def tools_api():
        if api:
            return api[0]

        class ServerTools:
            """Stubs for one server's tools: `context.tools.<server>.<tool>(**params)`."""

            def __init__(self, server):
                self._server, self._stubs, self._names = server, {}, None

            def _tool_names(self):
                if self._names is None:
                    listed = tool_request('list', self._server)
                    self._names = {sanitize(entry['tool'].partition('.')[2]): entry['tool'] for entry in listed}
                return self._names

            def __getattr__(self, ident):
                if ident.startswith('__'):
                    raise AttributeError(ident)
                stub = self._stubs.get(ident)
                if stub is None:
                    name = self._tool_names().get(ident)
                    if name is None:
                        raise ToolError('not_allowed', '%s.%s' % (self._server, ident),
                                        'no such tool is allowed; context.tools.list(%r) shows those that are'
                                        % self._server)
                    stub = self._stubs[ident] = make_stub(name, ident)
                return stub

            def __dir__(self):
                return sorted(self._tool_names())

            def __repr__(self):
                return '<tools of MCP server %r>' % self._server

        def make_stub(name, ident):
            info = tool_request('describe', name)
            schema = info.get('input_schema') or {}
            properties = schema.get('properties') or {}
            required = set(schema.get('required') or ())

            def stub(*args, **params):
                if args:
                    raise TypeError('%s() takes keyword arguments only' % ident)
                return Tools.call(name, params)

            inspect = load('inspect')
            ordered = sorted(properties, key=lambda p: p not in required)
            stub.__signature__ = inspect.Signature([inspect.Parameter(
                p if p.isidentifier() and not load('keyword').iskeyword(p) else sanitize(p), inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if p in required else None) for p in ordered])
            lines = [(info.get('description') or '')[:2048]]
            for p in ordered:
                spec = properties.get(p) or {}
                lines.append('  %s (%s%s): %s' % (p, spec.get('type', 'any'), ', required' if p in required else '',
                                                 str(spec.get('description', ''))[:200]))
            stub.__name__ = stub.__qualname__ = ident
            stub.__doc__ = '\n'.join(lines)
            return stub

        class Tools:
            """The operator's other MCP tools. call("server.tool", {...}) runs one and returns its result
            (structured JSON when the tool gives it); list(), search("words") and describe("server.tool") find
            them; context.tools.<server>.<tool>(**params) is the same as call(). Synchronous: no await."""

            @staticmethod
            def call(name, params=None, *, raw=False):
                if type(name) is not str:
                    raise TypeError('the tool name must be a str such as "server.tool", not %s' % type(name).__name__)
                if params is None:
                    params = {}
                if not isinstance(params, dict):
                    raise ToolError('invalid_params', name, 'params must be a dict (a JSON object), not %s'
                                    % type(params).__name__)
                problem = non_json(params, 'params')
                if problem:
                    raise ToolError('invalid_params', name, problem)
                text = load('json').dumps(params, allow_nan=False)
                return tool_request('call_raw' if raw else 'call', name, text)

            @staticmethod
            def list(server=None):
                return tool_request('list', server or '')

            @staticmethod
            def search(words, limit=5):
                return tool_request('search', str(words), load('json').dumps({'limit': int(limit)}))

            @staticmethod
            def describe(name):
                return tool_request('describe', str(name))

            def __getattr__(self, server):
                if server.startswith('__'):
                    raise AttributeError(server)
                return ServerTools(server)

            def __repr__(self):
                return '<context.tools: the MCP tools this call may use; see help(context.tools)>'

        Tools.ToolError = ToolError
        api.append(Tools())
        return api[0]


    class Context:
        """`context.inputs`: the call's `inputs` argument (a dict); `context.tools`: the operator's MCP tools."""
        __slots__ = ('_text', '_inputs')

        def __init__(self, text):
            self._text, self._inputs = text, None

        @property
        def tools(self):
            return tools_api()

        @property
        def inputs(self):
            if self._inputs is None:
                self._inputs = {} if self._text in ('', '{}') else load('json').loads(self._text)
            return self._inputs

        def __repr__(self):
            return '<context: .inputs, .tools>'

    Context.__name__ = Context.__qualname__ = 'context'

    if not hasattr(builtins, 'help'):
        def help(thing=None):
            """help(obj): its signature and documentation. help() alone: how to use this sandbox's tools."""
            if thing is None:
                print(type(tools_api()).__doc__)
                return
            inspect = load('inspect')
            try:
                signature = str(inspect.signature(thing))
            except (TypeError, ValueError):
                signature = ''
            print('%s%s' % (getattr(thing, '__name__', type(thing).__name__), signature))
            doc = inspect.getdoc(thing)
            if doc:
                print(doc)

        builtins.help = help

    # The import rule, one decision for every route by which user code can be handed a module. The rule is
    # ImportPolicy.refusal in the worker (import_rule); validate_code asks it too. It is enforced where user
    # code can ask for a module by name:
    # - builtins.__import__, which the import statement calls (also `from x import y`, and the import of a
    #   module already loaded), and importlib.__import__ (_bootstrap.__import__): guarded_import;
    # - importlib.import_module and the machinery's own entry (_bootstrap._gcd_import): guarded_gcd_import;
    # - the first load of any module, whatever route led there (the original __import__ found in a closure,
    #   importlib.util.find_spec, a builtin that imports by name): _bootstrap._find_spec, guarded_find_spec.
    # Who asks decides whether the rule applies: a library module's imports are its own dependencies (the
    # modules the profile allows need modules it does not), the user's are checked. This is convenience, not
    # the boundary (SECURITY.md): Python code can reach around it (a module already loaded is in sys.modules;
    # a loader can be driven by hand; code run with a library module's globals passes for that module), and
    # then the interpreter's settings are what hold.

    def import_refusal(name, fromlist=()):
        """Why user code may not import `name` (asking for `fromlist` from it), or None when it may."""
        if import_rule is None:
            return None
        return import_rule(name, tuple(fromlist)) or None

    if import_rule is not None:
        bootstrap = sys.modules['_frozen_importlib']
        plain_gcd_import, plain_find_spec = bootstrap._gcd_import, bootstrap._find_spec
        resolve_name, package_of = bootstrap._resolve_name, bootstrap._calc___package__
        module_type, modules, getframe = type(sys), sys.modules, sys._getframe
        unset = object()
        # This file's own imports (json for the report, inspect for help(), and the guards' own) are the
        # sandbox's: its code runs in __main__ under this name (the name the worker gives its source).
        prelude_name = getframe(0).f_code.co_filename

        # What GraalPy's builtins import themselves, as __import__(name, None, None, (), 0), while user code
        # is the frame on top (the typing module for `def f[T]()`, codecs for str.encode('idna'), the module
        # of an object pickle saves). Such a call passes whatever the profile; all are harmless or always
        # loaded (os).
        interpreter_imports = frozenset(('typing', 'codecs', 'encodings', 'warnings', 'locale', 'copyreg',
                                         'functools', '_compat_pickle', 'json.decoder', '_sha3', 'os', 'inspect',
                                         '_asyncio', '__main__'))

        def module_of(namespace):
            """The name of the loaded module whose globals these are (by its __name__, or by its spec's name
            for the few that rename themselves, as _pydecimal does), or None."""
            if namespace is main_globals or type(namespace) is not dict:
                return None
            for name in (namespace.get('__name__'), getattr(namespace.get('__spec__'), 'name', None)):
                module = modules.get(name) if type(name) is str else None
                if isinstance(module, module_type) and module.__dict__ is namespace:
                    return name
            return None

        def users(namespace, frame):
            """Whether code running with these globals, in this frame, is the user's: __main__, and a dict code
            was exec()'d in. A loaded module's globals are not (its imports are its own dependencies), nor is
            GraalPy's own frozen code, which runs in namespaces of its own (graalpy._sysconfig)."""
            if namespace is main_globals:
                return frame is None or frame.f_code.co_filename != prelude_name
            if module_of(namespace) is not None:
                return False
            return frame is None or not frame.f_code.co_filename.startswith('<frozen ')

        def machinery(frame):
            name = module_of(frame.f_globals)
            return name is not None and (name in ('_frozen_importlib', '_frozen_importlib_external', 'importlib')
                                         or name.startswith('importlib.'))

        def asked_by_user(frame):
            """Whether an import asked for at `frame` (the caller of an import function) is the user's: the
            first frame outward that is not the import machinery's (importlib) is the user's."""
            while frame is not None and machinery(frame):
                frame = frame.f_back
            return frame is not None and users(frame.f_globals, frame)

        def absolute_name(name, package, level):
            if not level:
                return name
            if not package:
                raise ImportError('attempted relative import with no known parent package')
            return resolve_name(name, package, level)

        def refuse(name, fromlist=()):
            refusal = import_refusal(name, fromlist)
            if refusal:
                raise ImportError(refusal, name=name)

        def shown(name, module, paths):
            """What user code gets for the module `name` on its way down `paths` (tuples of names under it):
            the module when the rule allows it, else a stand-in holding only those ways down, so that a
            package the rule refuses never reaches user code (`import xml.etree` binds `xml`)."""
            if import_refusal(name) is None:
                return module
            stand_in = module_type(name)
            for first in {path[0] for path in paths if path}:
                try:
                    value = getattr(module, first)
                except AttributeError:
                    continue
                setattr(stand_in, first, shown(name + '.' + first, value,
                                               [path[1:] for path in paths if path and path[0] == first]))
            return stand_in

        def guarded_import(name, globals=None, locals=None, fromlist=unset, level=0):
            asked = fromlist is not unset
            if not asked:
                fromlist = ()
            if globals is main_globals:  # the import statement passes its frame's globals
                from_user = True
            elif type(globals) is dict:
                from_user = module_of(globals) is None and users(globals, getframe(1))
            else:
                from_user = asked_by_user(getframe(1)) and not (
                    globals is None and asked and name in interpreter_imports)
            if not from_user:
                return load(name, globals, locals, fromlist, level)
            if type(name) is not str:
                raise TypeError('module name must be str, not %s' % type(name).__name__)
            fromlist = tuple(fromlist) if fromlist else ()  # read once: what is checked is what is imported
            for item in fromlist:
                if type(item) is not str:
                    raise TypeError("Item in ``from list'' must be str, not %s" % type(item).__name__)
            absolute = absolute_name(name, package_of(globals) if type(globals) is dict and level else None, level)
            refuse(absolute, fromlist)
            top = absolute.partition('.')[0]
            try:
                module = load(name, globals, locals, fromlist, level)
            except ModuleNotFoundError as e:
                if e.name == top and top in installable:
                    if top not in installing:
                        installing.append(top)
                    raise ModuleNotFoundError("'%s' is not installed yet: the server is installing the package"
                                              " that provides it; retry in a few seconds" % top, name=top) from None
                if e.name == top and top not in sys.stdlib_module_names:
                    raise ModuleNotFoundError("'%s' is allowed but not installed in this sandbox; the operator"
                                              " can install the package that provides it with"
                                              " bin/python-sandbox-mcp install" % top, name=top) from None
                raise
            if fromlist:
                return shown(absolute, module, [(item,) for item in fromlist])
            # `import a.b.c` gets `a`; a relative import with no fromlist, the package's first part of the name
            returned = top if not level or type(module.__name__) is not str else module.__name__
            rest = absolute[len(returned) + 1:]
            return shown(returned, module, [tuple(rest.split('.')) if rest else ()])

        def guarded_gcd_import(name, package=None, level=0):
            if asked_by_user(getframe(1)):
                refuse(absolute_name(name, package, level) if type(name) is str else name)
            return plain_gcd_import(name, package, level)

        def guarded_find_spec(name, path, target=None):
            if type(name) is str and import_refusal(name) is not None and asked_by_user(getframe(1)):
                refuse(name)
            return plain_find_spec(name, path, target)

        guarded_import.__name__ = guarded_import.__qualname__ = '__import__'
        guarded_gcd_import.__name__ = guarded_gcd_import.__qualname__ = '_gcd_import'
        guarded_find_spec.__name__ = guarded_find_spec.__qualname__ = '_find_spec'
        builtins.__import__ = bootstrap.__import__ = guarded_import
        bootstrap._gcd_import, bootstrap._find_spec = guarded_gcd_import, guarded_find_spec
        if 'importlib' in modules:
            modules['importlib'].__import__ = guarded_import

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

    def validate(source, catalog_text):
        """validate_code: what would fail in `source`, found by parsing alone (nothing runs). catalog_text: the
        supervisor's {"allowed": [...], "known": [...]} tool names. Returns JSON text {valid, errors}."""
        json, ast = load('json'), load('ast')
        catalog = json.loads(catalog_text)
        allowed_tools, known_tools = set(catalog.get('allowed') or ()), set(catalog.get('known') or ())
        stub_names = {}
        for name in known_tools:
            server, _, tool = name.partition('.')
            stub_names[(server, sanitize(tool))] = name
        errors = []

        def report(node, kind, message):
            errors.append({'line': getattr(node, 'lineno', 1) or 1, 'column': (getattr(node, 'col_offset', 0) or 0) + 1,
                           'kind': kind, 'message': message})

        def answer():
            # Bounded like any answer: a megabyte of refused imports must not make a report of ten.
            errors.sort(key=lambda e: (e['line'], e['column']))
            shown = errors[:100]
            for error in shown:
                error['message'] = error['message'][:300]
            report = {'valid': not errors, 'errors': shown}
            if len(errors) > len(shown):
                report['errors_omitted'] = len(errors) - len(shown)
            return json.dumps(report)

        top_level_await = False
        try:
            tree = ast.parse(source, '<string>')
        except SyntaxError as e:
            try:
                # `await` outside a function is a syntax error; parsed anyway, its tool calls get a clearer report.
                tree = compile(source, '<string>', 'exec', ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
                top_level_await = True
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                errors.append({'line': e.lineno or 1, 'column': e.offset or 1, 'kind': 'syntax', 'message': e.msg})
                return answer()
        except (ValueError, RecursionError, MemoryError) as e:
            errors.append({'line': 1, 'column': 1, 'kind': 'syntax', 'message': str(e) or type(e).__name__})
            return answer()

        def tools_chain(node):
            """The attribute names after `context.tools` in node (['call'], ['srv', 'tool']), or None."""
            names = []
            while isinstance(node, ast.Attribute):
                names.append(node.attr)
                node = node.value
            names.reverse()
            if isinstance(node, ast.Name) and node.id == 'context' and names[:1] == ['tools']:
                return names[1:]
            return None

        def tool_of(call):
            """The tool a call node names literally, or None."""
            chain = tools_chain(call.func)
            if chain == ['call'] and call.args and isinstance(call.args[0], ast.Constant) \
                    and isinstance(call.args[0].value, str):
                return call.args[0].value, call.args[1] if len(call.args) > 1 else None
            if chain is not None and len(chain) == 2 and chain[0] not in ('call', 'list', 'search', 'describe'):
                return stub_names.get((chain[0], chain[1]), '%s.%s' % (chain[0], chain[1])), None
            return None

        def check_import(node, module, fromlist=()):
            refusal = import_refusal(module, fromlist)
            if refusal:
                report(node, 'import_not_allowed', refusal)

        def imported_by_call(call):
            """(module, fromlist) a call imports by literal name: __import__('x'), importlib.import_module('x'),
            importlib.__import__('x'); or None."""
            func = call.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in ('__import__', 'import_module') or not call.args:
                return None
            first = call.args[0]
            if not isinstance(first, ast.Constant) or type(first.value) is not str or first.value.startswith('.'):
                return None
            fromlist = call.args[3] if name == '__import__' and len(call.args) > 3 else next(
                (k.value for k in call.keywords if k.arg == 'fromlist'), None)
            names = ()
            if isinstance(fromlist, (ast.List, ast.Tuple)) and all(
                    isinstance(e, ast.Constant) and type(e.value) is str for e in fromlist.elts):
                names = [e.value for e in fromlist.elts]
            return first.value, names

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    check_import(node, alias.name)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                check_import(node, node.module, [alias.name for alias in node.names])
            elif strict and isinstance(node, (ast.Name, ast.Attribute)):
                name = node.id if isinstance(node, ast.Name) else node.attr
                if name in forbidden_names:
                    report(node, 'strict_name', "'%s' is not allowed in the strict sandbox profile" % name)
            if isinstance(node, ast.Call):
                imported = imported_by_call(node)
                if imported is not None:
                    check_import(node, *imported)
                named = tool_of(node)
                if named is not None:
                    tool, params = named
                    if tool not in known_tools:
                        report(node, 'unknown_tool', "no tool '%s' is known; context.tools.list() shows the tools"
                                                     " this sandbox may call" % tool)
                    elif tool not in allowed_tools:
                        report(node, 'tool_not_allowed', "'%s' is not on this server's allow-list" % tool)
                    for part in ast.walk(params) if params is not None else ():
                        if isinstance(part, (ast.Set, ast.SetComp, ast.Lambda)) or (
                                isinstance(part, ast.Constant) and isinstance(part.value, bytes)):
                            report(part, 'non_json_param', 'tool parameters must be JSON: a %s is not'
                                   % type(part).__name__.lower())
            elif isinstance(node, ast.Await):
                if isinstance(node.value, ast.Call) and tools_chain(node.value.func) is not None:
                    report(node, 'await_tool_call', 'tool calls are synchronous: call them without await')
                elif top_level_await:
                    report(node, 'syntax', "'await' outside function")
        return answer()

    def run(source, filename, result_limit, module=None, inputs='{}', message_limit=4096):
        """Runs user code in __main__: the module the worker parsed from it if given, else compiled here.
        inputs: the call's `inputs` argument as JSON text, read by context.inputs.
        Returns (exit_code, error_message, result_description); the modules this call found missing that
        the server will install are in run.installing. error_message is cut here, to one character more than
        message_limit: the worker's answer budget marks the cut, and a 40 MB message never becomes a host string."""
        installing.clear()
        def short(message):
            return message[:message_limit + 1] if message is not None else None
        main_globals['context'] = Context(inputs)
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
                return (status, short(message), describe_result(result_limit, before, code))
            except BaseException as e:
                # Skip this function's own frame, so the traceback starts at the user's code.
                tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
                return (1, short(report_exception(e, tb, source, filename)), describe_result(result_limit, before, code))
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
    run.validate = validate
    return run

globals().pop("_make_runner")
