import pickle, tomllib, configparser, email, json
from email import policy
from dataclasses import dataclass
from collections import OrderedDict
@dataclass
class Point:
    x: int
    y: int
blob = pickle.dumps({'p': Point(1, 2), 'o': OrderedDict(a=1), 's': {1, 2}, 't': (1, 'a'), 'b': b'\x00'})
print(pickle.loads(blob))
print(tomllib.loads('title = "report"\n[owner]\nname = "Ada"\ndob = 1815-12-10\n[[items]]\nn = 1\n[[items]]\nn = 2\n'))
config = configparser.ConfigParser()
config.read_string('[db]\nhost = localhost\nport = 5432\n[paths]\nroot = /srv\nlogs = %(root)s/logs\n')
print(config.sections(), config.getint('db', 'port'), config.get('paths', 'logs'))
message = email.message_from_string(
    'From: Ada <ada@example.org>\nTo: bob@example.org\nSubject: =?utf-8?q?R=C3=A9sum=C3=A9?=\n'
    'Content-Type: multipart/mixed; boundary="XX"\n\n--XX\nContent-Type: text/plain; charset=utf-8\n\nHello Bob\n'
    '--XX\nContent-Type: application/json\nContent-Disposition: attachment; filename="d.json"\n\n{"a": 1}\n--XX--\n',
    policy=policy.default)
print(message['subject'], message['from'].addresses[0].username, message.is_multipart())
print([(part.get_content_type(), part.get_filename()) for part in message.iter_attachments()],
      message.get_body(('plain',)).get_content().strip())
