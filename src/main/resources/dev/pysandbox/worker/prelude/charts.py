# Charts: the door to the worker's renderer as the module _sandbox_charts, and the figures left open when the code ends.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_charts(sys, made_on_import, charts):
    """charts: the worker's bridge to its renderer (ChartBridge.java), called (op, figure_json, format, dpi, name);
    the sandbox's matplotlib reaches it as _sandbox_charts.charts.
    Returns finish(): the figures the call's code left open, drawn for its answer."""
    def define(module):
        module.charts = charts

    made_on_import('_sandbox_charts', define)

    def finish():
        pyplot = sys.modules.get('matplotlib.pyplot')
        if pyplot is None:
            return
        try:
            pyplot._sandbox_finish()
        except Exception as e:
            try:
                sys.stderr.write('The figures left open could not all be drawn: %s: %s\n' % (type(e).__name__, e))
            except BaseException:
                pass

    return finish
