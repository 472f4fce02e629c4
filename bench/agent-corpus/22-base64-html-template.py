import base64
import html
from string import Template

payload = "Résumé: <b>Agent</b> & \"sandbox\" — ok?".encode("utf-8")
b64 = base64.b64encode(payload)
print(b64.decode())
print(base64.b64decode(b64).decode("utf-8"))
print(base64.urlsafe_b64encode(bytes(range(250, 256)) * 3).decode())
print(base64.b32encode(b"agent").decode(), base64.b16encode(b"\x00\xffhi").decode())
print(base64.a85encode(b"hello world").decode())
rows = [("<script>", "x < y && y > z"), ("O'Reilly", 'say "hi"'), ("plain", "text")]
tpl = Template("<tr><td>$name</td><td>$note</td></tr>")
print("<table>")
for name, note in rows:
    print(" ", tpl.substitute(name=html.escape(name), note=html.escape(note)))
print("</table>")
print(html.unescape("&lt;p&gt;caf&eacute; &amp; cr&#232;me &#x263A;&lt;/p&gt;"))
t = Template("Dear $who, your order ${order_id} ships in $days days. Cost: $$${cost}")
print(t.substitute(who="Ana", order_id="A-17", days=3, cost="12.50"))
print(t.safe_substitute(who="Ben"))
