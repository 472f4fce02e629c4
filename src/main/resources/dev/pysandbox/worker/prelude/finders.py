# The meta path finders: modules the sandbox makes or completes (a pyexpat stand-in, a _socket with no network),
# a clear word for native-only modules, and the hooks other concerns make and complete modules with.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_finders(sys, constant):
    """constant(value): a function answering value whatever it is called with.
    Returns (after_import, made_on_import): after_import(name, patch) has patch(module) called each time the
    module `name` has been executed; made_on_import(name, define) makes the module `name`, when nothing else
    provides it, the first time something imports it, by calling define(module) on a new module."""
    # Modules the sandbox makes itself when the interpreter has none (_bz2, bz2_codec.py; pyexpat on 25.0):
    # a finder placed last, so that a real module of the name is still found first.
    makers = {}

    class Made:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            return sys.modules['_frozen_importlib'].spec_from_loader(name, cls) if name in makers else None

        @staticmethod
        def create_module(spec):
            return None

        @staticmethod
        def exec_module(module):
            makers[module.__name__](module)

    def made_on_import(name, define):
        makers[name] = define

    # GraalPy 25.0 (the JIT workers' line) ships no expat parser, so xml.etree.ElementTree failed to parse text
    # with "No module named expat; use SimpleXMLTreeBuilder instead", which points nowhere. Its stand-in's
    # parser says what is missing (GraalPy 25.2's own pyexpat, on JDK's XML parser, is found first).
    def no_expat(module):
        message = ('XML parsing is not available in this sandbox: GraalPy has no expat parser; '
                   'xml.etree.ElementTree can still build, search and serialize trees')

        class ExpatError(Exception):
            pass

        def ParserCreate(*args, **kwargs):
            raise NotImplementedError(message)

        module.ParserCreate = ParserCreate
        module.ExpatError = module.error = ExpatError
        module.model = type(sys)('pyexpat.model')
        module.errors = type(sys)('pyexpat.errors')

    made_on_import('pyexpat', no_expat)

    # Modules GraalPy leaves to a native library the sandbox cannot load: importing sqlite3 (which the import
    # policy refuses, saying why, unless the operator allows it) said only "No module named '_sqlite3'".
    # Placed last, so that a module that does exist is still found.
    class NativeOnly:
        libraries = {'_sqlite3': "SQLite's"}

        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if name in cls.libraries:
                raise ModuleNotFoundError("No module named '%s': it needs %s native code, which this sandbox "
                                          "cannot load" % (name, cls.libraries[name]), name=name)
            return None

    sys.meta_path.append(NativeOnly)
    sys.meta_path.append(Made)

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

    # Standard modules the sandbox completes after their code has run (asyncio's event loop, event_loop.py). A
    # finder placed first finds them as the path finder would and wraps their loader, so the patch runs before
    # any importer sees the module.
    patches = {}
    path_finder = sys.modules['_frozen_importlib_external'].PathFinder

    class Patched:
        def __init__(self, loader, patch):
            self.loader, self.patch = loader, patch

        def __getattr__(self, name):
            return getattr(self.loader, name)

        def create_module(self, spec):
            return self.loader.create_module(spec)

        def exec_module(self, module):
            self.loader.exec_module(module)
            self.patch(module)

    class AfterImport:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            patch = patches.get(name)
            spec = path_finder.find_spec(name, path, target) if patch is not None else None
            if spec is not None and spec.loader is not None:
                spec.loader = Patched(spec.loader, patch)
            return spec

    sys.meta_path.insert(0, AfterImport)

    def after_import(name, patch):
        patches[name] = patch

    return after_import, made_on_import
