// Node's timers, for code that awaits a delay: setTimeout, setInterval, setImmediate and their clears.
// One of the runtime's files (JavaScriptEngine joins them): it defines makeTimers, which runtime.js calls.
// GraalJS has no event loop. The worker runs this queue after the code: it waits until the earliest timer is due
// and runs it, one timer per call into the context, so that the promise jobs a timer queues run before the next
// timer, as in Node. A call ends when no timer is left, or at its timeout.

function makeTimers() {
    // Node's limit: a delay outside 1..TIMEOUT_MAX runs after 1 ms.
    const TIMEOUT_MAX = 2147483647;
    let queue = [];
    let serial = 0;

    class Timeout {
        constructor(callback, args, interval, due) {
            this._id = ++serial;
            this._callback = callback;
            this._args = args;
            this._interval = interval;
            this._due = due;
        }
        ref() { return this; }
        unref() { return this; }
        hasRef() { return true; }
        refresh() { this._due = Date.now() + Math.max(this._interval, 1); return this; }
        [Symbol.toPrimitive]() { return this._id; }
    }

    function delayOf(delay) {
        const ms = Number(delay);
        return ms >= 1 && ms <= TIMEOUT_MAX ? Math.trunc(ms) : 1;
    }

    function checkCallback(callback) {
        if (typeof callback !== 'function') {
            throw new TypeError('The "callback" argument must be of type function. Received ' + typeof callback);
        }
    }

    function schedule(callback, delay, args, repeats) {
        checkCallback(callback);
        const ms = delayOf(delay);
        const timer = new Timeout(callback, args, repeats ? ms : 0, Date.now() + ms);
        queue.push(timer);
        return timer;
    }

    function clear(timer) {
        if (timer == null) {
            return;
        }
        const id = typeof timer === 'object' ? timer._id : Number(timer);
        queue = queue.filter(t => t._id !== id);
    }

    /** The timer that runs next: the earliest due, the first set among equals. */
    function next() {
        let first = null;
        for (const timer of queue) {
            if (first === null || timer._due < first._due || (timer._due === first._due && timer._id < first._id)) {
                first = timer;
            }
        }
        return first;
    }

    return {
        globals: {
            setTimeout: (callback, delay, ...args) => schedule(callback, delay, args, false),
            setInterval: (callback, delay, ...args) => schedule(callback, delay, args, true),
            setImmediate: (callback, ...args) => {
                checkCallback(callback);
                const timer = new Timeout(callback, args, 0, Date.now());
                queue.push(timer);
                return timer;
            },
            clearTimeout: clear,
            clearInterval: clear,
            clearImmediate: clear,
        },
        /** When the next timer is due, in Date.now() milliseconds; -1 when none is left. */
        nextDue() {
            const first = next();
            return first === null ? -1 : first._due;
        },
        /** Runs the next timer (its due time has come); an interval is set again first, as Node does. */
        runNext() {
            const timer = next();
            if (timer === null) {
                return;
            }
            if (timer._interval > 0) {
                timer._due = Date.now() + timer._interval;
            } else {
                queue = queue.filter(t => t !== timer);
            }
            timer._callback.apply(undefined, timer._args);
        },
        /** Drops every timer: a call's timers never outlive it, even in a session. */
        clearAll() {
            queue = [];
        },
    };
}
