import random
import struct
import zlib

random.seed(2323)
fmt = "<IhdB8s"
size = struct.calcsize(fmt)
records = []
for i in range(20000):
    records.append(struct.pack(fmt, i, random.randint(-30000, 30000), round(random.random() * 1000, 3),
                               random.randint(0, 255), bytes(random.choice(b"ACGT") for _ in range(8))))
blob = b"".join(records)
print("record size:", size, "blob bytes:", len(blob))
compressed = zlib.compress(blob, 6)
print("compressed:", len(compressed), "ratio:", f"{len(compressed) / len(blob):.4f}")
restored = zlib.decompress(compressed)
print("roundtrip ok:", restored == blob, "crc32:", zlib.crc32(blob), "adler32:", zlib.adler32(blob))
total_h = 0
max_d = 0.0
for rec_id, h, d, flag, tag in struct.iter_unpack(fmt, blob):
    total_h += h
    max_d = max(max_d, d)
print("sum h:", total_h, "max d:", max_d)
print("record 7:", struct.unpack_from(fmt, blob, 7 * size))
header = struct.pack(">4sHHI", b"AGNT", 1, 2, len(blob))
print("header:", header.hex(), struct.unpack(">4sHHI", header))
print("float bits:", struct.pack(">d", 0.1).hex(), struct.unpack(">f", struct.pack(">f", 0.1))[0])
