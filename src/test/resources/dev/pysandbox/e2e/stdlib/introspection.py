import ast, inspect, io, locale, tokenize, keyword
tree = ast.parse('total = price * (1 + rate)')
print(ast.dump(tree.body[0].value))
print(ast.unparse(ast.parse('if x:\n  y = [i*2 for i in range(3)]')))
print(ast.literal_eval("{'a': [1, 2.5, None], 'b': (True, 'x')}"))
names = [node.id for node in ast.walk(ast.parse('a = b + c(d)')) if isinstance(node, ast.Name)]
print(sorted(names))
def area(width: float, height: float = 1.0, *, unit='m') -> str:
    """Area of a rectangle."""
    return f'{width * height}{unit}2'
signature = inspect.signature(area)
print(signature, list(signature.parameters), inspect.getdoc(area), inspect.isfunction(area))
print([name for name, _ in inspect.getmembers(area) if name.startswith('__n')])
tokens = [(tokenize.tok_name[t.type], t.string) for t in tokenize.generate_tokens(io.StringIO('x = f(1) # hi\n').readline)]
print(tokens)
print(keyword.iskeyword('lambda'), keyword.iskeyword('print'))
print(locale.setlocale(locale.LC_ALL, 'C'), locale.getlocale(), locale.localeconv()['decimal_point'])
print(locale.format_string('%.2f', 1234567.891, grouping=True), locale.str(3.5), locale.atof('2.5'))
