# The host surfaces code has no need for: signals, facts about the host, the environment, processes, threads.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_host(sys, os, posix, pwd, _signal, _thread, time_zones):
    """time_zones: where the host's time zone database is mounted read-only, or ''."""
    def refused(what):
        def refuse(*args, **kwargs):
            raise PermissionError('%s is not available in this sandbox' % what)
        return refuse

    # Signals reach the worker JVM's own process (raise_signal(SIGTERM) killed it before -Xrs; handlers
    # and alarms still change process-wide state). The stubs keep `import signal` working.
    for name in ('signal', 'raise_signal', 'alarm', 'setitimer', 'siginterrupt', 'set_wakeup_fd',
                 'pthread_kill', 'pthread_sigmask', 'sigwait', 'sigwaitinfo', 'sigtimedwait'):
        if hasattr(_signal, name):
            setattr(_signal, name, refused('signal.' + name))

    # Facts about the host that code has no need for: answer neutral values (stdlib modules such as uuid
    # call uname() at import, so refusing would break them).
    def constant(value):
        return lambda *args, **kwargs: value
    neutral = {
        'getpid': 2, 'getppid': 1, 'getuid': 65534, 'geteuid': 65534, 'getgid': 65534, 'getegid': 65534,
        'getgroups': [], 'getlogin': 'sandbox', 'cpu_count': 1,
        'uname': os.uname_result(('Linux', 'sandbox', '', '', '')),
    }
    for module in (os, posix):
        for name, value in neutral.items():
            if hasattr(module, name):
                setattr(module, name, constant(value))
        for name in ('getloadavg', 'times', 'sched_getaffinity', 'getresuid', 'getresgid', 'ctermid', 'ttyname'):
            if hasattr(module, name):
                setattr(module, name, refused('os.' + name))
    # The context sees no environment, so os.path.expanduser('~') asks pwd.getpwuid(), which the interpreter
    # refuses with a host error no `except` catches: that ended every call that imported sysconfig (and so
    # zoneinfo), site or getpass. A neutral user, and the scratch working directory as home, in this
    # context's own copy of the environment. (os.getcwd() needs no stand-in: the context's file system
    # answers it with the scratch working directory.)
    os.environ.setdefault('HOME', '/home/sandbox')
    os.environ.setdefault('USER', 'sandbox')
    # The same refusal ended tarfile.add(), which names a file's owner with pwd.getpwuid(): the host's users
    # are unknown here, as on a host without those ids, so the lookups raise KeyError.
    def unknown(what):
        def lookup(key):
            raise KeyError('%s: %r' % (what, key))
        return lookup
    pwd.getpwuid, pwd.getpwnam, pwd.getpwall = unknown('getpwuid(): uid not found'), \
        unknown('getpwnam(): name not found'), lambda: []
    # GraalPy's build names no time zone folders (sysconfig's TZPATH is empty), so zoneinfo looked only in the
    # tzdata package; PYTHONTZPATH is where zoneinfo reads its search path first.
    if time_zones:
        os.environ.setdefault('PYTHONTZPATH', time_zones)

    # Gateways to the host. None in sys.modules makes any later import of them fail, whoever asks. (polyglot
    # stays: GraalPy's datetime needs it; the context refuses polyglot access anyway, and the import policy
    # keeps user code from importing it.)
    for name in ('java', '_ctypes', 'ctypes'):
        sys.modules[name] = None

    # Process creation: the context refuses it. A stand-in for the module subprocess starts processes with,
    # instead of None there: subprocess, and asyncio, which imports it, then import, and starting a process
    # raises PermissionError (an OSError, as on a host that forbids it) when it is tried.
    no_processes = type(sys)('_posixsubprocess')
    no_processes.fork_exec = refused('starting a process')
    sys.modules['_posixsubprocess'] = no_processes

    # Threads: the context refuses them with a host error no `except` can catch, which ended the whole call.
    # Starting one raises RuntimeError instead, as CPython does when it cannot start a thread; locks, events
    # and the rest of threading still work in the one thread there is.
    def no_thread(*args, **kwargs):
        raise RuntimeError("can't start new thread: threads are not available in this sandbox")
    for name in ('start_new_thread', 'start_new', 'start_joinable_thread'):
        if hasattr(_thread, name):
            setattr(_thread, name, no_thread)
    threading = sys.modules.get('threading')
    if threading is not None and hasattr(threading, '_start_new_thread'):
        threading._start_new_thread = no_thread

    return constant
