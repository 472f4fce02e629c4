# Code mode: `context.inputs`, `context.tools` (the operator's other MCP tools), ToolError and help().
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_tools(builtins, load, tools):
    """tools: the worker's bridge to the operator's other MCP tools (code mode), called (op, tool, params_json).
    Returns (Context, sanitize): the class of a call's `context`, built Context(inputs_json), and the rule that
    turns a tool's name into the Python identifier of its stub."""
    # Code mode: `context.inputs`, and `context.tools`, the operator's other MCP tools. Every request goes to
    # the supervisor through `tools`, which enforces the allow-list, the budget and the parameter limits; the
    # checks here only make mistakes fail early and clearly (a set in the parameters, a non-dict).
    infinity = float('inf')

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
    return Context, sanitize
