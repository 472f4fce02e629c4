# Runs once in every fresh context, before any user code. It defines how user code is run and reported:
# CPython-like tracebacks on stderr, sys.exit() semantics, and the `result` variable turned into JSON.
# This is convenience, not security: user code can reach and alter all of it, but only in its own context.
#
# It also installs the policy layers that live in Python: the import policy, neutered host surfaces and the
# optional strict profile. They make the sandbox's rules visible early and clearly; they are not the
# boundary (the context settings and the worker process are), so a way around them still reaches nothing.
#
# Each concern is a file of its own in this folder, which defines its install function (install_paths in
# paths.py ...). Prelude.java joins the files, this one last, into one Source, so that a context evaluates the
# prelude once (BENCHMARKS.md, "The prelude as one file per concern"). This file takes the install functions
# out of __main__, so none can reach another's by accident and user code finds none of them, and puts them
# together, in this order, with what each needs passed to it by name.

def install(settings, concerns):
    """settings (Prelude.Settings, by name): import_rule, the worker's import rule (ImportRule.java), or None
    for the unrestricted profile; strict, the strict profile; preload, comma-separated modules to import now,
    before any user code, so calls find them loaded; packages, where the operator's packages are mounted
    read-only, or ''; auto_install, comma-separated modules the server installs when code imports them
    missing; time_zones, where the host's time zone database is mounted read-only, or ''; ucd and bz2, the
    worker's answers for unicodedata and _bz2 (UnicodeData.java, Bzip2Codec.java); tools, the worker's bridge
    to the operator's other MCP tools (ToolBridge.java); charts, the worker's bridge to its renderer
    (ChartBridge.java); library, where the sandbox's own packages (matplotlib) are mounted read-only, or ''.
    concerns: each file's install function, by the file's name (concerns.paths is paths.py's install_paths).
    Returns the runner: namespace(run, validate, flush, installing, state, finish_charts)."""
    import sys, os, posix, pwd, builtins, _locale, _signal, _thread, _io, io, _weakref
    import_rule, strict = settings.import_rule, settings.strict
    preload, packages, auto_install = settings.preload, settings.packages, settings.auto_install
    time_zones = settings.time_zones
    ucd, bz2, tools = settings.ucd, settings.bz2, settings.tools
    charts, library = settings.charts, settings.library

    # The prelude's own lazy imports must not go through the import guard installed below: its functions
    # live in __main__, exactly where the guard looks for user code.
    load = builtins.__import__
    main_globals = sys.modules['__main__'].__dict__
    # The records the worker reads by name (Prelude.java): types.SimpleNamespace, without importing types.
    namespace = type(sys.implementation)
    paths, files, exits, host, finders = concerns.paths, concerns.files, concerns.exits, concerns.host, concerns.finders
    c_locale = concerns.c_locale
    event_loop, lzma_format = concerns.event_loop, concerns.lzma_format
    unicode_data, bz2_codec = concerns.unicode_data, concerns.bz2_codec
    context_tools, import_guard, chart_door = concerns.tools, concerns.import_guard, concerns.charts
    strict_rule, validation, report, runner = concerns.strict, concerns.validate, concerns.report, concerns.run
    session_state = concerns.state
    # The file name the sandbox's own frames run under (the one Source the files are joined into): the import
    # guard trusts them, tracebacks leave them out.
    prelude_names = frozenset([sys._getframe(0).f_code.co_filename])

    paths(sys, packages, library)
    flush = files(sys, builtins, _io, io, _weakref)
    any_exit, exit_status = exits(sys, os, posix, builtins)
    constant = host(sys, os, posix, pwd, _signal, _thread, time_zones)
    c_locale(sys, _locale)
    after_import, made_on_import = finders(sys, constant)
    event_loop(load, after_import)
    lzma_format(after_import)
    # GraalPy imports unicodedata while it starts, so completing it costs a fresh context nothing.
    unicode_data(sys, load, ucd)
    bz2_codec(made_on_import, bz2)
    Context, sanitize = context_tools(builtins, load, tools)
    finish_charts = chart_door(sys, made_on_import, charts)
    import_refusal, installing = import_guard(sys, builtins, load, main_globals, import_rule, prelude_names,
                                              auto_install)
    check_strict, forbidden_name = strict_rule(load)
    validate = validation(load, import_refusal, strict, forbidden_name, sanitize)
    result_now, describe_result, report_exception = report(sys, load, main_globals, prelude_names, namespace)
    run = runner(sys, main_globals, strict, check_strict, Context, any_exit, exit_status, result_now, describe_result,
                 report_exception, flush, installing, namespace)
    state = session_state(sys, load, main_globals)

    # Imported here, while the worker is idle, instead of in the call that needs them. Each context is new, so
    # these modules' state is this call's own. The worker checked them against the import policy.
    for name in preload.split(',') if preload else ():
        try:
            load(name)
        except BaseException:
            pass  # the call that imports it meets the same failure, reported as Python reports it

    return namespace(run=run, validate=validate, flush=flush, installing=installing, state=state,
                     finish_charts=finish_charts)


def _installer():
    """What evaluating the prelude gives Prelude.java: install(settings), with every concern's install function
    bound, and all of them taken out of __main__."""
    main = globals()
    namespace = type(__import__('sys').implementation)
    concerns = namespace(**{name[len('install_'):]: main.pop(name)
                            for name in [name for name in main if name.startswith('install_')]})
    composer = main.pop('install')
    return lambda settings: composer(settings, concerns)

globals().pop('_installer')()
