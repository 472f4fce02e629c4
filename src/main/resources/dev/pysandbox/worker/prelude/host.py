# The host surfaces code has no need for: signals, facts about the host, the environment, process creation.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_host(sys, os, posix, _signal):
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

    # Gateways to the host and to process creation. None in sys.modules makes any later import of them
    # fail, whoever asks. (polyglot stays: GraalPy's datetime needs it; the context refuses polyglot access
    # anyway, and the import policy keeps user code from importing it.)
    for name in ('java', '_posixsubprocess', '_ctypes', 'ctypes'):
        sys.modules[name] = None

    return constant
