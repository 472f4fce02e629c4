import random
from fractions import Fraction

def matmul(A, B):
    Bt = list(zip(*B))
    return [[sum(a * b for a, b in zip(row, col)) for col in Bt] for row in A]

random.seed(1818)
n = 110
A = [[random.randint(-9, 9) for _ in range(n)] for _ in range(n)]
B = [[random.randint(-9, 9) for _ in range(n)] for _ in range(n)]
C = matmul(A, B)
print("C[0][:6]:", C[0][:6])
print("trace:", sum(C[i][i] for i in range(n)), "sum:", sum(map(sum, C)))
print("A*I == A:", matmul(A, [[int(i == j) for j in range(n)] for i in range(n)]) == A)

def det(M):
    M, d = [[Fraction(x) for x in row] for row in M], Fraction(1)
    size = len(M)
    for c in range(size):
        p = next((r for r in range(c, size) if M[r][c] != 0), None)
        if p is None: return Fraction(0)
        if p != c:
            M[c], M[p] = M[p], M[c]
            d = -d
        d *= M[c][c]
        for r in range(c + 1, size):
            f = M[r][c] / M[c][c]
            if f:
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return d
small = [row[:8] for row in A[:8]]
print("det of 8x8 block:", det(small))
F, R, e = [[1, 1], [1, 0]], [[1, 0], [0, 1]], 300
while e:
    if e & 1:
        R = matmul(R, F)
    F = matmul(F, F)
    e >>= 1
print("fib(300):", R[0][1])
