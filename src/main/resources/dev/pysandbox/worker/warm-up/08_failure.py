# A failing call: the traceback an agent reads when its code is wrong.
import json
def load(text):
    return json.loads(text)["missing"]
print("before the error")
load('{"present": 1}')
