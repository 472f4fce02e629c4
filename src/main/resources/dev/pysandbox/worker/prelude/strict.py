# The strict profile (builtins.strict): user code may not name the builtins that reach around the rules.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).
# The rule is written once, here: run() enforces it through check_strict, validate_code reports it through
# strict_name, and both ask forbidden_name.

def install_strict(load):
    """Returns (check_strict, forbidden_name)."""
    forbidden_names = frozenset(('eval', 'exec', 'compile', 'open', '__import__', 'globals', 'locals',
                                 'getattr', 'setattr', 'delattr', 'breakpoint', 'vars', '__builtins__'))

    def forbidden_name(node, ast):
        """The name a node of the syntax tree uses that the strict profile forbids, or None."""
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        return name if name in forbidden_names else None

    def check_strict(source, filename):
        """Removing the names from builtins outright would also break every import statement, which needs
        __import__: so the code is checked before it runs."""
        ast = load('ast')
        for node in ast.walk(ast.parse(source, filename)):
            name = forbidden_name(node, ast)
            if name is not None:
                raise PermissionError("'%s' is not allowed in the strict sandbox profile (line %d)"
                                      % (name, node.lineno))

    return check_strict, forbidden_name
