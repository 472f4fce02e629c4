import hashlib
import hmac
import random

random.seed(1313)
blobs = [bytes(random.randint(0, 255) for _ in range(random.randint(100, 2000))) for _ in range(200)]
print("total bytes:", sum(len(b) for b in blobs))
print("sha256[0]:", hashlib.sha256(blobs[0]).hexdigest())
print("md5[1]:", hashlib.md5(blobs[1]).hexdigest())
h = hashlib.sha256()
for b in blobs:
    h.update(b)
print("sha256(all):", h.hexdigest())
print("sha1(empty):", hashlib.sha1(b"").hexdigest())
print("sha512 prefix:", hashlib.sha512(b"agent").hexdigest()[:32])

digests = [hashlib.sha256(f"record-{i}".encode()).hexdigest() for i in range(20000)]
prefix_zero = sum(1 for d in digests if d.startswith("00"))
print("digests starting with 00:", prefix_zero, "min:", min(digests)[:16])

key = b"super-secret-key"
msg = b"POST /api/orders?id=42&amount=19.99"
sig = hmac.new(key, msg, hashlib.sha256).hexdigest()
print("hmac-sha256:", sig)
print("verify ok:", hmac.compare_digest(sig, hmac.new(key, msg, "sha256").hexdigest()))
print("tampered ok:", hmac.compare_digest(sig, hmac.new(key, msg + b"0", "sha256").hexdigest()))
chain = b"genesis"
for i in range(5000):
    chain = hashlib.sha256(chain + i.to_bytes(4, "big")).digest()
print("hash chain:", chain.hex())
