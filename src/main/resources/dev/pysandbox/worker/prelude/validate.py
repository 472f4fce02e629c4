# validate_code: what would fail in some code, found by parsing alone (nothing runs).
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).
# It asks the rules enforcement asks: import_refusal (import_guard.py) and forbidden_name (strict.py), so a
# report and a run cannot disagree.

def install_validate(load, import_refusal, strict, forbidden_name, sanitize):
    """strict: whether the strict profile is on. Returns validate(source, catalog_text)."""
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
            elif strict and forbidden_name(node, ast) is not None:
                report(node, 'strict_name', "'%s' is not allowed in the strict sandbox profile"
                       % forbidden_name(node, ast))
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

    return validate
