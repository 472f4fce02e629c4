"""The one door from this package to the worker's renderer (the worker's ChartBridge): figures go through it as
JSON and come back drawn, or refused with the reason. The prelude hands the door over as the module
_sandbox_charts (charts.py in the prelude); without it (this package outside the sandbox) nothing can be drawn."""
import binascii
import json

_limits = []


def _door():
    try:
        import _sandbox_charts
    except ImportError:
        raise RuntimeError('figures can be drawn only inside the sandbox') from None
    return _sandbox_charts


def limits():
    """The renderer's limits (ChartLimits.java): max_points, max_pixels ..."""
    if not _limits:
        _limits.append(json.loads(_door().charts('limits', '', '', 0.0, '')))
    return _limits[0]


def _send(op, spec, fmt, dpi, name):
    text = json.dumps(spec, separators=(',', ':'))
    reply = json.loads(_door().charts(op, text, fmt, float(dpi or 0), name))
    if not reply.get('ok'):
        raise ValueError(reply.get('error') or 'the figure could not be drawn')
    return reply


def draw(spec, fmt, dpi, name):
    """The figure drawn as bytes in `fmt` ('png' or 'svg'); the worker also keeps it for the call's answer."""
    reply = _send('save', spec, fmt, dpi, name)
    return binascii.a2b_base64(reply['data'])


def show(spec, name):
    """The figure drawn for the call's answer only."""
    _send('show', spec, 'png', 0, name)
