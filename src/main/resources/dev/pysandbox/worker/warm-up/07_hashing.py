# Bytes: hashes, encodings, struct packing, and a class with properties and errors handled.
import hashlib, hmac, base64, struct, uuid
data = b"".join(struct.pack("<IdH", i, i / 3, i % 65535) for i in range(2000))
print(hashlib.sha256(data).hexdigest()[:16], hashlib.md5(data).hexdigest()[:8], hashlib.sha1(data).hexdigest()[:8])
print(hmac.new(b"key", data, "sha256").hexdigest()[:16], base64.b64encode(data[:30]).decode(), data[:8].hex())
print(uuid.uuid5(uuid.NAMESPACE_DNS, "example.org"), struct.unpack_from("<IdH", data, 14))
class Account:
    def __init__(self, owner):
        self.owner, self._balance = owner, 0
    @property
    def balance(self):
        return self._balance
    def withdraw(self, amount):
        if amount > self._balance:
            raise ValueError(f"{self.owner} cannot withdraw {amount}")
        self._balance -= amount
try:
    Account("ada").withdraw(5)
except ValueError as error:
    print("refused:", error)
