# What a session holds, told without running its caller's code (inspect_session): the names, types and sizes of
# its variables. One of the prelude's files: it defines its install function, which prelude.py takes and calls
# (Prelude.java).
#
# The walk calls no method a class defines: it looks into the built-in containers only, by their exact type, so a
# session's own classes cannot make the inspection run their code. It visits at most `budget` objects per
# variable; a size beyond it is a lower bound (size_is_partial).
#
# Sizes are estimates by CPython 3.12's layout on 64 bits (what sys.getsizeof says there): GraalPy answers
# sys.getsizeof and __sizeof__ through its native layer, which a sandboxed context does not have. The worker's heap
# after a full collection, which inspect_session also reports, is the measured figure.

def install_state(sys, load, main_globals):
    """Returns state(limit, budget): the JSON text of {variables: [{name, type, size_bytes, length?,
    size_is_partial?}], variables_omitted, size_bytes}, the largest variables first, at most `limit` of them."""
    containers = (list, tuple, set, frozenset, dict)
    fixed = {float: 24, complex: 32, type(None): 16, bool: 28}

    def table_slots(n, load_num, load_den):
        """The smallest power of two from 8 whose table holds n entries at the load factor."""
        slots = 8
        while n * load_den >= slots * load_num:
            slots *= 2
        return slots

    def estimate(item, kind):
        """What CPython 3.12's sys.getsizeof gives for a built-in object of exact type `kind`; 56 for others."""
        if kind in fixed:
            return fixed[kind]
        if kind is int:
            return 24 + 4 * max(1, -(-abs(item).bit_length() // 30))
        if kind is str:
            widest = max(map(ord, item)) if item else 0
            if widest < 128:
                return 41 + len(item)
            return 57 + len(item) if widest < 256 else 58 + 2 * len(item) if widest < 65536 else 60 + 4 * len(item)
        if kind is bytes:
            return 33 + len(item)
        if kind is bytearray:
            return 57 + len(item)
        if kind is list:
            return 56 + 8 * len(item)
        if kind is tuple:
            return 40 + 8 * len(item)
        if kind is dict:
            slots = table_slots(len(item), 2, 3)
            return 80 + slots * (1 if slots <= 128 else 2) + 24 * (slots * 2 // 3) if item else 64
        if kind is set or kind is frozenset:
            return 216 if len(item) < 5 else 200 + 16 * table_slots(len(item), 3, 5)
        return 56
    hidden = frozenset(['__name__', '__doc__', '__package__', '__loader__', '__spec__', '__builtins__',
                        '__annotations__', '__file__', '__cached__'])

    def size_of(value, seen, budget):
        """(bytes, partial): the value and what it holds through built-in containers, each object once."""
        total = 0
        stack = [value]
        visited = 0
        while stack:
            item = stack.pop()
            if id(item) in seen:
                continue
            seen.add(id(item))
            visited += 1
            if visited > budget:
                return total, True
            kind = type(item)
            total += estimate(item, kind)
            if kind is dict:
                for key, entry in item.items():
                    stack.append(key)
                    stack.append(entry)
            elif kind in containers:
                stack.extend(item)
        return total, False

    def type_name(value):
        kind = type(value)
        module = kind.__module__
        return kind.__qualname__ if module in ('builtins', '__main__') else module + '.' + kind.__qualname__

    def state(limit, budget):
        json = load('json')
        shared = set()  # what two variables hold counts once, for the first
        found = []
        for name, value in list(main_globals.items()):
            if name in hidden or type(value) is type(sys):
                continue  # the module's own names, and imported modules, which every context shares
            size, partial = size_of(value, shared, budget)
            entry = {'name': name, 'type': type_name(value), 'size_bytes': size}
            if type(value) in containers or type(value) in (str, bytes, bytearray):
                entry['length'] = len(value)
            if partial:
                entry['size_is_partial'] = True
            found.append(entry)
        found.sort(key=lambda entry: -entry['size_bytes'])
        return json.dumps({'variables': found[:limit], 'variables_omitted': max(0, len(found) - limit),
                           'size_bytes': sum(entry['size_bytes'] for entry in found)})

    return state
