import copy, functools, sys
sys.setrecursionlimit(1000)
def depth(n):
    return depth(n + 1) if n < 990 else n
print(depth(0))
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(450) % 1000003)
nested = []
for _ in range(150):
    nested = [{'child': nested}]
print(len(str(copy.deepcopy(nested))))
graph = {i: [i + 1] for i in range(900)}
graph[900] = []
seen = []
def visit(node):
    seen.append(node)
    for nxt in graph[node]:
        visit(nxt)
visit(0)
print(len(seen))
sys.setrecursionlimit(4000)
def deeper(n):
    return deeper(n + 1) if n < 3500 else n
print(deeper(0))
def runaway(n):
    return runaway(n + 1)
try:
    runaway(0)
except RecursionError as e:
    print('RecursionError', 'maximum recursion depth exceeded' in str(e))
print('still here')
