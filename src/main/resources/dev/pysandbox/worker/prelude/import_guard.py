# The import policy: one rule (import_refusal), enforced on every route by which user code names a module.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_import_guard(sys, builtins, load, main_globals, import_rule, prelude_names, auto_install):
    """import_rule: the worker's import rule, called (name, fromlist) and answering the refusal's text or ''
    (ImportRule.java); None for the unrestricted profile, which checks no import.
    prelude_names: the file names of the prelude's code (Prelude.java names its Source). Its functions run
    in __main__, like user code; its own imports (json for the report, inspect for help(), the guards')
    are the sandbox's. No user code runs under these names (Prelude.userFilename).
    auto_install: comma-separated modules the server installs when code imports them missing.
    Returns (import_refusal, installing): the rule as validate asks it, and the list of modules the current
    call found missing that the server will install."""
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

    # Modules this call found missing that the server will install (packages.auto-install): the runner
    # reports them, and the server starts the install while the call fails fast.
    installable = frozenset(auto_install.split(',')) if auto_install else frozenset()
    installing = []

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

        # What GraalPy's builtins import themselves, as __import__(name, None, None, (), 0), while user code
        # is the frame on top (the typing module for `def f[T]()`, codecs for str.encode('idna'), the module
        # of an object pickle saves). Such a call passes whatever the profile; all are harmless or always
        # loaded (os). _collections is where GraalPy's OrderedDict and deque live: pickle imports it to save one.
        interpreter_imports = frozenset(('typing', 'codecs', 'encodings', 'warnings', 'locale', 'copyreg',
                                         'functools', '_compat_pickle', 'json.decoder', '_sha3', 'os', 'inspect',
                                         '_asyncio', '__main__', '_collections'))

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
                return frame is None or frame.f_code.co_filename not in prelude_names
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
    return import_refusal, installing
