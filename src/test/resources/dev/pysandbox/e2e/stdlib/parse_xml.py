import io
import xml.etree.ElementTree as ET
import xml.dom.minidom
import xml.sax
from xml.sax.handler import ContentHandler

doc = ('<?xml version="1.0" encoding="UTF-8"?>\n'
       '<?xml-stylesheet href="s.css"?>\n'
       '<catalog xmlns="urn:books" xmlns:p="urn:price">\n'
       '  <!-- two books -->\n'
       '  <book id="b1" lang="en"><title>Dune &amp; more</title><p:price cur="EUR">9.50</p:price></book>\n'
       '  <book id="b2"><title><![CDATA[<Zürich> & Genève]]></title><p:price cur="CHF">12</p:price><?note keep?></book>\n'
       '</catalog>\n')
root = ET.fromstring(doc)
ns = {'b': 'urn:books', 'p': 'urn:price'}
print(root.tag, [(b.get('id'), b.find('b:title', ns).text, b.find('p:price', ns).get('cur'), b.find('p:price', ns).text)
                 for b in root.findall('b:book', ns)])
print(ET.tostring(root, encoding='unicode'))
events = [(event, elem if event == 'start-ns' else elem.tag if isinstance(elem.tag, str) else elem.text)
          for event, elem in ET.iterparse(io.BytesIO(doc.encode()), events=('start', 'end', 'start-ns', 'comment', 'pi'))]
print(events)
tree = ET.parse(io.StringIO('<a><b x="1"/><b x="2">t</b></a>'))
print([b.attrib for b in tree.getroot()], tree.getroot().findtext('b[@x="2"]'))
latin = '<?xml version="1.0" encoding="ISO-8859-1"?><v>caf\xe9</v>'.encode('latin-1')
print(ET.fromstring(latin).text)
parser = ET.XMLPullParser(['start', 'end'])
parser.feed('<r><i>1</i>')
print([(e, el.tag) for e, el in parser.read_events()])
parser.feed('<i>2</i></r>')
print([(e, el.tag) for e, el in parser.read_events()])
dom = xml.dom.minidom.parseString(doc)
print(dom.documentElement.tagName, dom.documentElement.namespaceURI,
      [t.firstChild.data for t in dom.getElementsByTagName('title')])
print(dom.getElementsByTagNameNS('urn:price', 'price')[1].getAttribute('cur'))
print(xml.dom.minidom.parseString('<a><b k="v">x</b><!--c--></a>').toprettyxml(indent='  '))

class Collect(ContentHandler):
    def __init__(self):
        super().__init__()
        self.seen = []
    def startElement(self, name, attrs):
        self.seen.append(('start', name, dict(attrs)))
        self.text = ''
    def characters(self, content):
        self.text += content
    def endElement(self, name):
        self.seen.append(('end', name, self.text))
        self.text = ''
    def processingInstruction(self, target, data):
        self.seen.append(('pi', target, data))
handler = Collect()
xml.sax.parseString(b'<a x="1"><b>hi &lt;there&gt;</b><?go now?></a>', handler)
print(handler.seen)
try:
    ET.fromstring('<a><b></a>')
except ET.ParseError as e:
    print('ParseError', type(e).__name__)
