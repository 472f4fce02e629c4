import bz2, gzip, io, lzma, tarfile, zipfile, zlib, os
text = ('line %d of the report\n' * 200) % tuple(range(200))
data = text.encode()
for name, module in (('bz2', bz2), ('gzip', gzip), ('lzma', lzma), ('zlib', zlib)):
    packed = module.compress(data)
    print(name, module.decompress(packed) == data, len(packed) < len(data) // 4)
with zipfile.ZipFile('out.zip', 'w', compression=zipfile.ZIP_DEFLATED) as archive:
    archive.writestr('a/report.txt', text)
    archive.writestr('b.json', '{"k": 1}')
with zipfile.ZipFile('out.zip') as archive:
    print(archive.namelist(), archive.read('b.json'), archive.getinfo('a/report.txt').file_size)
    archive.extractall('unzipped')
print(sorted(os.listdir('unzipped')), open('unzipped/a/report.txt').read() == text)
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode='w:xz') as archive:
    info = tarfile.TarInfo('notes/readme.txt')
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))
buffer.seek(0)
with tarfile.open(fileobj=buffer, mode='r:*') as archive:
    print(archive.getnames(), archive.extractfile('notes/readme.txt').read() == data)
    archive.extractall('untarred', filter='data')
print(open('untarred/notes/readme.txt').read() == text)
with gzip.open('log.gz', 'wt') as f:
    f.write(text)
with gzip.open('log.gz', 'rt') as f:
    print(f.readline().strip())
with lzma.open('log.xz', 'w') as f:
    f.write(data)
print(lzma.open('log.xz').read() == data)
# bz2 written by CPython's libbz2: two streams, read back whole, then in pieces of 7 bytes
cpython_bz2 = bytes.fromhex(
    '425a68393141592653592a045d3800000251800010400023221c002000310030201a62730b490827'
    '1e2ee48a70a1205408ba70425a683931415926535984529094000005d180001040002e039c002000'
    '2200d0d040d0340504bd384f1e1e2ee48a70a12108a52128')
print(bz2.decompress(cpython_bz2))
decompressor = bz2.BZ2Decompressor()
pieces, at = [], 0
while not decompressor.eof:
    pieces.append(decompressor.decompress(cpython_bz2[at:at + 7]))
    at += 7
print(b''.join(pieces), decompressor.eof, at, len(decompressor.unused_data), decompressor.needs_input)
limited = bz2.BZ2Decompressor()
print(limited.decompress(cpython_bz2, max_length=5), limited.needs_input, limited.decompress(b''), limited.eof)
with bz2.open('log.bz2', 'wt') as f:
    f.write(text)
with bz2.open('log.bz2', 'rt') as f:
    print(f.read() == text)
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode='w:bz2') as archive:
    archive.add('log.bz2')
buffer.seek(0)
print(tarfile.open(fileobj=buffer, mode='r:bz2').getnames())
try:
    bz2.decompress(b'BZh9not bzip2 data at all, but long enough')
except OSError as e:
    print('OSError', e)
# a plain tar, which tarfile.open() tells from the compressed kinds by trying each; data in no lzma format
plain = io.BytesIO()
with tarfile.open(fileobj=plain, mode='w') as archive:
    archive.addfile(tarfile.TarInfo('empty.txt'))
plain.seek(0)
print(tarfile.open(fileobj=plain).getnames())
try:
    lzma.decompress(b'linkA' + bytes(100))
except lzma.LZMAError as e:
    print('LZMAError', e)
