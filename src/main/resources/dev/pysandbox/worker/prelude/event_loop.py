# asyncio for computation: an event loop that needs no socket pair, file descriptors or threads.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_event_loop(load, after_import):
    """load: the import function the sandbox's own imports use (the guard checks the user's).
    after_import(name, patch): has patch(module) called when the module `name` has run (finders.py)."""
    # asyncio's loop on Linux wakes itself through a socket pair and waits on the host's file descriptors, none
    # of which the sandbox offers, so asyncio.run() failed before any coroutine ran. This loop waits by
    # sleeping until its next timer: with threads off, nothing outside the call can wake it, and a loop with
    # nothing to run and no timer would wait for ever, so it says so instead. Coroutines, tasks, gather,
    # queues, locks, timeouts and sleeps work; network, process and signal calls raise when they are tried.

    def sandbox_loop(unix_events):
        selectors, time = load('selectors'), load('time')

        class Selector(selectors.BaseSelector):
            """Watches nothing: there are no sockets or pipes to watch, only time to wait."""

            def register(self, fileobj, events, data=None):
                raise PermissionError('waiting on files or sockets is not available in this sandbox')

            def unregister(self, fileobj):
                raise KeyError('%r is not registered' % (fileobj,))

            def select(self, timeout=None):
                if timeout is None:
                    raise RuntimeError('the event loop has nothing left to run and no timer set, so it would '
                                       'wait for ever: no thread, socket or process can wake it in this sandbox')
                if timeout > 0:
                    time.sleep(timeout)
                return []

            def get_map(self):
                return {}

        class SandboxEventLoop(unix_events._UnixSelectorEventLoop):
            def __init__(self, selector=None):
                super().__init__(Selector())

            # The socket pair other threads and signal handlers wake the loop through: there are none.
            def _make_self_pipe(self):
                pass

            def _close_self_pipe(self):
                pass

            def _write_to_self(self):
                pass

            def add_signal_handler(self, sig, callback, *args):
                # NotImplementedError is what code written to also run on Windows expects and skips.
                raise NotImplementedError('signal handlers are not available in this sandbox')

            def remove_signal_handler(self, sig):
                return False

            # asyncio looks names up on an executor thread; here the lookup is the call's own, refused by
            # the _socket stand-in (finders.py). A process is refused by the _posixsubprocess stand-in (host.py).
            async def getaddrinfo(self, *args, **kwargs):
                return load('socket').getaddrinfo(*args, **kwargs)

            async def getnameinfo(self, *args, **kwargs):
                return load('socket').getnameinfo(*args, **kwargs)

            async def _make_subprocess_transport(self, *args, **kwargs):
                load('_posixsubprocess').fork_exec()

            async def shutdown_default_executor(self, timeout=None):
                # asyncio shuts its executor down from a thread of its own; no thread of the executor's can
                # have started here, so there is nothing to wait for.
                self._executor_shutdown_called = True
                if self._default_executor is not None:
                    self._default_executor.shutdown(wait=False)

        SandboxEventLoop.__module__ = unix_events.__name__
        unix_events.SelectorEventLoop = SandboxEventLoop
        unix_events._UnixDefaultEventLoopPolicy._loop_factory = SandboxEventLoop

    after_import('asyncio.unix_events', sandbox_loop)
