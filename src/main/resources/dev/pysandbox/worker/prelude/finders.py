# The meta path finders: a pyexpat stand-in that says what is missing, and a _socket with no network.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_finders(sys, constant):
    """constant(value): a function answering value whatever it is called with."""
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
